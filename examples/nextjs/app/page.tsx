import { Analytics } from "./analytics";
import { PrivacyChoices } from "./privacy-choices";

export default function Home() {
  return (
    <main>
      <h1>Shop</h1>
      <p>Everything below waits for the visitor's decision.</p>
      <Analytics />
      <PrivacyChoices />
    </main>
  );
}
