// Types of the `kubefit` package. The data types are generated from the Rust types by
// tsify (in `kubefit_wasm.d.ts`); only the signatures of the entry points are written here.

import type { EvaluateOptions, Evaluation, Input, ScheduleEvaluation, TextEvaluation } from './kubefit_wasm.js';

export type {
  Condition,
  Configuration,
  ConfiguredPlugin,
  DeschedulerRun,
  Diagnostic,
  Disruption,
  EvaluateOptions,
  Evaluation,
  Event,
  EventKind,
  Eviction,
  Format,
  Input,
  Inventory,
  LimitsOptions,
  MachineStatus,
  NamedSource,
  NodeRow,
  NodeVerdict,
  Outcome,
  Placement,
  PodRow,
  PodState,
  PredicateVerdict,
  Preemption,
  Profile,
  ProfileConfiguration,
  QosClass,
  Report,
  ScheduleEvaluation,
  ScheduleOptions,
  Scheduling,
  Sampled,
  Severity,
  SourceInput,
  SourceText,
  TextEvaluation,
  Victim,
} from './kubefit_wasm.js';

/** Where to load the WebAssembly module from, for `init`. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads the WebAssembly module. Needed once in browsers before any other call; in Node the
 * module is loaded at import and this resolves at once.
 */
export default function init(input?: InitInput | Promise<InitInput>): Promise<void>;

/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export function initSync(module: BufferSource | WebAssembly.Module): void;

/**
 * Evaluates Kubernetes or OpenShift objects (YAML or JSON) and reports on the cluster.
 *
 * Never throws for bad input: unreadable text, wrong argument types and internal crashes
 * come back as `{ok: false, report}` with diagnostics.
 */
export function evaluate(input: Input, options?: EvaluateOptions & { format?: 'json' }): Evaluation;
/** With `format: "text"`: the report rendered as `kubectl`-like tables. */
export function evaluate(input: Input, options: EvaluateOptions & { format: 'text' }): TextEvaluation;
export function evaluate(input: Input, options?: EvaluateOptions): Evaluation | TextEvaluation;

/** Evaluates like `evaluate` and renders the report as `kubectl`-like tables. */
export function evaluateText(input: Input, options?: EvaluateOptions): string;

/**
 * Places every pending pod as the scheduler would and returns only that: the scheduling
 * section of the report (`profile`, `configuration`, one entry per pending pod with its
 * outcome, node, FailedScheduling message, preemption and per-node verdicts) and the
 * diagnostics. `options.schedule` picks the profile, preemption and tie-break seed.
 *
 * Never throws for bad input, like `evaluate`.
 */
export function schedule(input: Input, options?: EvaluateOptions): ScheduleEvaluation;

/** The kubefit version. */
export function version(): string;
