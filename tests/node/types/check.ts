// Type-checked by types.test.mjs against the installed package (never run). Each
// `@ts-expect-error` proves that the declarations reject a wrong use.
import init, { evaluate, evaluateText, initSync, schedule, version } from 'kubefit';
import type { Diagnostic, EvaluateOptions, Evaluation, Eviction, EventKind, Input, Placement, Report, ScheduleEvaluation, TextEvaluation } from 'kubefit';

export async function uses(bytes: Uint8Array): Promise<void> {
  await init();
  initSync(bytes);

  const result: Evaluation = evaluate('kind: Node', { limits: { maxDepth: 10 } });
  if (result.ok) {
    const ok: true = result.ok;
    void ok;
  }
  const report: Report = result.report;
  const first: Diagnostic | undefined = report.diagnostics[0];
  const line: number | undefined = first?.line;
  const severity: 'error' | 'warning' | undefined = first?.severity;
  const cpu: string | undefined = report.nodes[0]?.free['cpu'];
  // The report arrives as JSON: maps are plain objects and a missing value is `null`.
  const kinds: number | undefined = report.inventory.kinds['Pod'];
  const boundTo: (string | null)[] = report.pods.map((pod) => pod.node);
  void [line, severity, cpu, kinds, boundTo];

  const text: TextEvaluation = evaluate(bytes, { format: 'text' });
  const rendered: string = text.text;
  void rendered;
  const either: Evaluation | TextEvaluation = evaluate(bytes, {} as EvaluateOptions);
  void either;

  const inputs: Input[] = ['a', bytes, ['a', bytes, { text: 'b' }, { name: 'c.yaml', text: bytes }]];
  void inputs;
  const tables: string = evaluateText(['a', { name: 'b', text: 'c' }]);
  const placed: ScheduleEvaluation = schedule('kind: Pod', {
    schedule: { profile: 'openshift-3.11', preemption: false, seed: 7, maxNodeVerdicts: 10 },
  });
  const placement: Placement | undefined = placed.scheduling.pods[0];
  const outcome:
    | 'scheduled' | 'unschedulable' | 'nominated' | 'rejected' | 'not-handled' | 'gated' | 'skipped'
    | undefined = placement?.outcome;
  const gates: string[] | undefined = placement?.schedulingGates;
  const message: string | null | undefined = placement?.message;
  void [outcome, gates, message];
  // The disruption timeline: events in seconds, evictions with their cause and landing.
  const timed: Report = evaluate('kind: Scenario', { at: '10m' }).report;
  const kind: EventKind | undefined = timed.timeline[0]?.kind;
  const seconds: number | undefined = timed.timeline[0]?.at;
  const eviction: Eviction | undefined = timed.evictions[0];
  const landed: string | null | undefined = eviction?.rescheduledTo;
  const until: number = timed.timelineUntil;
  const drainable: string | undefined = timed.machines[0]?.conditions[0]?.status;
  void [kind, seconds, landed, until, drainable];
  // @ts-expect-error `at` is a Go duration string
  evaluate('a', { at: 600 });
  // @ts-expect-error profiles are the two kubefit reproduces
  schedule('a', { schedule: { profile: 'kubernetes-1.99' } });
  const v: string = version();
  void [tables, v];

  // @ts-expect-error a number is not an input
  evaluate(42);
  // @ts-expect-error a source needs `text`
  evaluate([{ name: 'x.yaml' }]);
  // @ts-expect-error limits are numbers
  evaluate('a', { limits: { maxDepth: '3' } });
  // @ts-expect-error unknown format
  evaluate('a', { format: 'yaml' });
  // @ts-expect-error a text evaluation has no report
  evaluate('a', { format: 'text' }).report;
  // @ts-expect-error a JSON evaluation has no text
  evaluate('a').text;
  // @ts-expect-error the test-only export is not part of the types
  void (await import('kubefit')).__kubefitPanicForTests;
}
