/** Running a command, and building the site into a folder of its own (for the bench's comparison builds). */
import {spawn} from 'node:child_process';
import {SITE, docusaurusBin} from './workspaces.ts';

/** The Docusaurus CLI the site builds with. */
export const DOCUSAURUS = docusaurusBin();

export function run(
  command: string,
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{code: number; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {cwd, stdio: ['ignore', 'ignore', 'pipe'], env});
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({code: code ?? 1, stderr}));
  });
}

/** Builds the site with `env` on top of the process's (and `extra` arguments) into site/<outDir>. */
export async function siteBuild(
  outDir: string,
  what: string,
  env: Record<string, string>,
  extra: string[] = [],
  log: (line: string) => void = () => {},
): Promise<void> {
  log(`building the site ${what} into site/${outDir}…`);
  const {code, stderr} = await run(process.execPath, [DOCUSAURUS, 'build', '--out-dir', outDir, ...extra], SITE, {...process.env, ...env});
  if (code !== 0) throw new Error(`the build of site/${outDir} (${what}) failed:\n${stderr.slice(-2000)}`);
}
