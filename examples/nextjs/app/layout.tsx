import { AssentConsent } from "@assent/react";
import Script from "next/script";
import type { ReactNode } from "react";

const assent = process.env.NEXT_PUBLIC_ASSENT_URL!;
const project = process.env.NEXT_PUBLIC_ASSENT_PROJECT!;

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        {/*
          The widget before any other script and before hydration. In the App Router Next.js keeps only a
          beforeInteractive script's src (no type="module"), so this is the classic build.
        */}
        <Script src={`${assent}/widget/assent.classic.js`} strategy="beforeInteractive" />
        {/* The element, created in the browser; its banner and preferences draw in the top layer. */}
        <AssentConsent project={project} api={assent} />
      </body>
    </html>
  );
}
