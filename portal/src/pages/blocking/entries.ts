// What the Blocking page adds to a project's list, worked out from what it offers: a vendor of the catalogue (its
// hosts and the hosts that serve its script, under a purpose with the vendor's Consent Mode types, created when the
// project has none), or the latest scan's proposed and unclassified hosts. Hosts already listed are left as they are.
import { api, ok } from "../../api";
import type { BlockingEntry, Project, Purpose, ScanWithReport, ThirdPartyHost, Vendor } from "../../types";
import { createProposedPurposes } from "../scanner/purposes";
import { categoryLabel } from "../scanner/report";

/** The entries a vendor adds under `purpose`: its hosts, then those of the vendor serving its script, each once. */
export function vendorEntries(vendor: Vendor, vendors: Vendor[], listed: BlockingEntry[], purpose: string): BlockingEntry[] {
  const servedBy = vendors.find((v) => v.id === vendor.servedBy);
  const taken = new Set(listed.map((entry) => entry.host));
  return [vendor, ...(servedBy ? [servedBy] : [])].flatMap((v) =>
    v.hosts.filter((host) => !taken.has(host)).map((host): BlockingEntry => ({ host, purpose, source: "catalogue", vendor: v.id })),
  );
}

/**
 * The latest scan's third-party hosts that the list does not name yet: those its proposal lists (non-essential, of a
 * known category), and the unclassified ones, which no database names and which wait for the operator's decision.
 */
export function scannedHosts(scan: ScanWithReport | null, listed: BlockingEntry[]): { proposed: ThirdPartyHost[]; unclassified: ThirdPartyHost[] } {
  const taken = new Set(listed.map((entry) => entry.host));
  const found = (scan?.report?.thirdPartyHosts ?? []).filter((host) => !taken.has(host.host));
  const proposed = new Set((scan?.report?.proposal.hosts ?? []).filter((host) => host.category !== "unclassified").map((host) => host.host));
  return { proposed: found.filter((host) => proposed.has(host.host)), unclassified: found.filter((host) => host.category === "unclassified") };
}

/** The purpose a scanned host goes under by default: the one named after its category (as the scanner creates them), else the first. */
export const defaultPurposeOf = (host: ThirdPartyHost, purposes: Purpose[]) => (purposes.find((p) => p.referenceId === host.category) ?? purposes[0])?.referenceId;

/**
 * The purpose a vendor's hosts go under: the project's purpose named after the vendor's default purpose
 * (`analytics`, `marketing`, `functional`, as the scanner names them), created with the vendor's Consent Mode types
 * when missing (with `controller`, a party id or the scanner's new-controller choice), or given the types it lacks.
 * Answers its referenceId.
 */
export async function purposeForVendor(project: Project, vendor: Vendor, purposes: Purpose[], controller: string): Promise<string> {
  const existing = purposes.find((p) => p.referenceId === vendor.purpose);
  if (!existing) {
    const proposal = { category: vendor.purpose, name: categoryLabel(vendor.purpose), consentModeTypes: vendor.consentModeTypes, items: 0 };
    await createProposedPurposes(project, [proposal], purposes, controller);
    return vendor.purpose;
  }
  const lacking = vendor.consentModeTypes.filter((type) => !existing.consentMode.includes(type));
  if (lacking.length > 0) {
    const { projectId: _project, purposeId, version: _version, created: _created, updated: _updated, ...fields } = existing;
    await ok(
      api.PUT("/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", {
        params: { path: { project_id: project.projectId, purpose_id: purposeId } },
        // Naming the Consent Mode types the purpose already stands for does not change what visitors agree to.
        body: { ...fields, consentMode: [...existing.consentMode, ...lacking], requireNewConsent: false },
      }),
    );
  }
  return existing.referenceId;
}
