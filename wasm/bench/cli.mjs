// The CLI on a kubectl-sized dump (default about 300 MB: 5 000 nodes, 150 000 pods with
// realistic padding): wall time and peak memory of `kubefit evaluate FILE`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cluster } from './cluster.mjs';

const pkg = process.env.KUBEFIT_BENCH_PKG;
if (!pkg) throw new Error('KUBEFIT_BENCH_PKG is not set: run `./dev bench`');
const nodes = Number(process.env.KUBEFIT_BENCH_NODES ?? 5000);
const pods = Number(process.env.KUBEFIT_BENCH_PODS ?? 150000);
const dir = mkdtempSync(join(tmpdir(), 'kubefit-bench-'));
try {
  const file = join(dir, 'cluster.yaml');
  const input = cluster({ nodes, pods });
  writeFileSync(file, input);
  console.log(`input: ${nodes} nodes, ${pods} pods, ${(input.length / 1e6).toFixed(1)} MB of YAML`);
  for (const output of ['json', 'text']) {
    const start = process.hrtime.bigint();
    // The child reports its own peak memory on fd 3, after the CLI has finished.
    const probe = `import fs from 'node:fs'; process.on('exit', () => fs.writeSync(3, String(process.resourceUsage().maxRSS)));`;
    const result = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, join(pkg, 'bin', 'kubefit.js'), 'evaluate', file, '-o', output],
      { maxBuffer: 2 ** 31 - 1, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.error) throw result.error;
    const rss = Number(result.output[3]?.toString() || 0) / 1024;
    console.log(
      `  -o ${output}: exit ${result.status}, ${ms.toFixed(0)} ms, peak RSS ${rss.toFixed(0)} MB, ${(result.stdout.length / 1e6).toFixed(1)} MB out` +
        (result.stderr.length ? `, stderr: ${result.stderr.toString().slice(0, 300)}` : ''),
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
