import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time (user + system) per request, µs: steadier than req/s on a noisy machine. */
  cpuUs: number;
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds the process has used so far (utime + stime of /proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** One autocannon run against the server `pid`; throws on any non-2xx response or connection error. */
export async function measure(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
  connections = 64,
): Promise<Load> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const cpuUs = ((cpuSeconds(pid) - cpuBefore) * 1e6) / result.requests.total;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `(status codes: ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

/** Samples VmRSS of `pid` every 200 ms until stopped; returns the peak in MB. */
export function sampleRss(pid: number): { stop(): number } {
  let peakKb = 0;
  const sample = () => {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      peakKb = Math.max(peakKb, Number(match?.[1] ?? 0));
    } catch {
      // the process is gone; the benchmark notices that elsewhere
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakKb / 1024;
    },
  };
}
