/**
 * Start-up cost of the docs-indexer CLI: CPU time (user + system) of `docs-indexer --help` and
 * `docs-indexer --version`, beside a bare `node -e ""` on the same machine, as a ratio (CPU time
 * depends less on the machine's load than wall time). Issue 12's target: ≤ 150 ms of CPU.
 *
 *   node --import tsx indexer/bench/startup.ts [--runs 15]     (also run by `npm run bench`)
 *
 * Each run is a fresh process; a preloaded CommonJS file writes the process's own CPU time at
 * exit, so the figures exclude the spawning. Medians of the runs are printed.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {INDEXER_BIN as BIN} from './workspaces.ts';

export const STARTUP_TARGET_CPU_MS = 150;

export interface StartupFigures {
  runs: number;
  /** Median CPU ms of each command. */
  nodeCpuMs: number;
  helpCpuMs: number;
  versionCpuMs: number;
  /** helpCpuMs / nodeCpuMs and versionCpuMs / nodeCpuMs. */
  helpRatio: number;
  versionRatio: number;
  targetCpuMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

function cpuMs(preload: string, args: string[]): number {
  const result = spawnSync(process.execPath, ['--require', preload, ...args], {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}});
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const match = /^startup-cpu-us (\d+)$/m.exec(result.stderr);
  if (!match) throw new Error(`no CPU figure from node ${args.join(' ')}`);
  return Number(match[1]) / 1000;
}

export function benchStartup(options: {runs?: number; log?: (line: string) => void} = {}): StartupFigures {
  const runs = options.runs ?? 15;
  const dir = mkdtempSync(path.join(tmpdir(), 'startup-bench-'));
  const preload = path.join(dir, 'cpu.cjs');
  writeFileSync(preload, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\nstartup-cpu-us ${u.user + u.system}\\n`); });\n");
  try {
    const commands = {node: ['-e', ''], help: [BIN, '--help'], version: [BIN, '--version']};
    const times: Record<keyof typeof commands, number[]> = {node: [], help: [], version: []};
    // Interleaved, so that a change in the machine's load touches every command alike.
    for (let i = 0; i < runs; i++) {
      for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) times[name].push(cpuMs(preload, args));
    }
    const nodeCpuMs = median(times.node);
    const helpCpuMs = median(times.help);
    const versionCpuMs = median(times.version);
    const figures = {
      runs,
      nodeCpuMs: round(nodeCpuMs),
      helpCpuMs: round(helpCpuMs),
      versionCpuMs: round(versionCpuMs),
      helpRatio: round(helpCpuMs / nodeCpuMs, 2),
      versionRatio: round(versionCpuMs / nodeCpuMs, 2),
      targetCpuMs: STARTUP_TARGET_CPU_MS,
    };
    options.log?.(
      `startup: node -e "" ${figures.nodeCpuMs} ms CPU; docs-indexer --help ${figures.helpCpuMs} ms (${figures.helpRatio}×), ` +
        `--version ${figures.versionCpuMs} ms (${figures.versionRatio}×); target ≤ ${STARTUP_TARGET_CPU_MS} ms`,
    );
    return figures;
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--runs');
  const figures = benchStartup({runs: i >= 0 ? Number(process.argv[i + 1]) : 15, log: (line) => console.log(line)});
  console.log(JSON.stringify(figures));
}
