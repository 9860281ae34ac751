// The widget's share of the benchmark: its min+gzip size and the time from script start to the open dialog.
export async function measureWidget() {
  return { skipped: "not measured yet" };
}
