import { api, ok } from "../../api";
import type { Scan, ScanWithReport } from "../../types";

/** The newest completed scan among `scans` (newest first) with its report; null before the first one completes. */
export async function latestReport(projectId: string, scans: Scan[]): Promise<ScanWithReport | null> {
  const latest = scans.find((scan) => scan.status === "completed");
  return latest ? ok(api.GET("/privacy/v2/projects/{project_id}/scans/{scan_id}", { params: { path: { project_id: projectId, scan_id: latest.scanId } } })) : null;
}
