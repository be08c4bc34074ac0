#!/usr/bin/env node
// The kubefit CLI: `kubefit evaluate [FILE|-]... [-o json|text] [scheduling options]`.
//
// Exit codes: 0 when the input is valid, 1 when it has errors, 2 for usage errors.
// Files are read as bytes and handed to the module as they are, so a 300 MB file never
// becomes a JavaScript string.
import { readFileSync } from 'node:fs';
import * as raw from '../kubefit_wasm.js';
import { createApi } from '../kubefit.js';
import { version } from '../node.js';

const USAGE = `Usage: kubefit evaluate [FILE|-]... [-o json|text] [options]

Reads Kubernetes and OpenShift objects (YAML or JSON; files, or - for standard input)
and reports on the cluster they describe, offline: nodes, pods, where each pending pod
would be scheduled and why, and what a kubefit Scenario's steps (taints, drains,
machine deletions, descheduler runs) would evict, when, and where the pods land.

Options:
  -o, --output FORMAT  json (the report, the default) or text (kubectl-like tables)
  --profile NAME       the scheduler to reproduce: openshift-3.11 or kubernetes-1.34
                       (default: chosen by the input; a Policy or MasterConfig selects
                       openshift-3.11)
  --no-preemption      pods that fit nowhere do not preempt (disablePreemption)
  --seed N             seed of the kubernetes-1.34 draw between tied nodes (default 0)
  --at DURATION        stop the Scenario's timeline there (a Go duration: 90s, 1h30m)
                       and show the nodes and pods as they are at that point
  --no-reschedule      do not place the replacements of evicted pods
  -h, --help           print this help
  -V, --version        print the kubefit version

Exit status: 0 valid input, 1 input with errors, 2 usage error.
`;

class UsageError extends Error {}

function parse(args) {
  const files = [];
  let output = 'json';
  const schedule = {};
  let at;
  let reschedule;
  let command;
  let onlyFiles = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    // `--name value` and `--name=value`.
    const valueOf = (name, expected) => {
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
      index += 1;
      if (index >= args.length) throw new UsageError(`${name} needs a value: ${expected}`);
      return args[index];
    };
    if (onlyFiles || arg === '-' || !arg.startsWith('-')) {
      if (command === undefined) {
        command = arg;
      } else {
        files.push(arg);
      }
    } else if (arg === '--') {
      onlyFiles = true;
    } else if (arg === '-h' || arg === '--help') {
      return { help: true };
    } else if (arg === '-V' || arg === '--version') {
      return { version: true };
    } else if (arg === '-o' || arg === '--output') {
      index += 1;
      if (index >= args.length) throw new UsageError(`${arg} needs a value: json or text`);
      output = args[index];
    } else if (arg.startsWith('--output=')) {
      output = arg.slice('--output='.length);
    } else if (arg.startsWith('-o') && arg.length > 2) {
      output = arg.slice(arg[2] === '=' ? 3 : 2);
    } else if (arg === '--profile' || arg.startsWith('--profile=')) {
      schedule.profile = valueOf('--profile', 'openshift-3.11 or kubernetes-1.34');
      if (schedule.profile !== 'openshift-3.11' && schedule.profile !== 'kubernetes-1.34') {
        throw new UsageError(`unknown profile \`${schedule.profile}\`: use openshift-3.11 or kubernetes-1.34`);
      }
    } else if (arg === '--no-preemption') {
      schedule.preemption = false;
    } else if (arg === '--seed' || arg.startsWith('--seed=')) {
      const seed = valueOf('--seed', 'a non-negative integer');
      if (!/^\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
        throw new UsageError(`--seed must be a non-negative integer, got \`${seed}\``);
      }
      schedule.seed = Number(seed);
    } else if (arg === '--no-reschedule') {
      reschedule = false;
    } else if (arg === '--at' || arg.startsWith('--at=')) {
      at = valueOf('--at', 'a Go duration such as 90s or 1h30m');
    } else {
      throw new UsageError(`unknown option \`${arg}\``);
    }
  }
  if (command === undefined) throw new UsageError('missing command: try `kubefit evaluate FILE`');
  if (command === 'help') return { help: true };
  if (command !== 'evaluate') throw new UsageError(`unknown command \`${command}\``);
  if (output !== 'json' && output !== 'text') {
    throw new UsageError(`unknown output format \`${output}\`: use json or text`);
  }
  return { files, output, schedule, at, reschedule };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function read(files) {
  if (files.length === 0) {
    if (process.stdin.isTTY) throw new UsageError('no input: give a file, or - to read standard input');
    files = ['-'];
  }
  const sources = [];
  for (const file of files) {
    if (file === '-') {
      sources.push({ name: '<stdin>', text: await readStdin() });
      continue;
    }
    try {
      sources.push({ name: file, text: readFileSync(file) });
    } catch (error) {
      const reason = error.code === 'ENOENT' ? 'no such file' : error.code === 'EISDIR' ? 'is a directory' : error.message;
      throw new UsageError(`cannot read \`${file}\`: ${reason}`);
    }
  }
  return sources;
}

async function main(args) {
  let parsed;
  let sources;
  try {
    parsed = parse(args);
    if (parsed.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (parsed.version) {
      process.stdout.write(`kubefit ${version()}\n`);
      return 0;
    }
    sources = await read(parsed.files);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`kubefit: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  // The instance is the one node.js initialised; the raw result keeps the JSON as text.
  const { ok, payload } = createApi(raw, () => true).evaluateRaw(sources, {
    format: parsed.output,
    schedule: parsed.schedule,
    ...(parsed.at === undefined ? {} : { at: parsed.at }),
    ...(parsed.reschedule === undefined ? {} : { reschedule: parsed.reschedule }),
  });
  process.stdout.write(payload.endsWith('\n') ? payload : `${payload}\n`);
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
