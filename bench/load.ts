import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
}

/** One autocannon run from this process; throws on any non-2xx response or connection error. */
export async function measure(url: string, headers: Record<string, string>, seconds: number): Promise<Load> {
  const result = await autocannon({ url, headers, connections: 64, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `(status codes: ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
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
