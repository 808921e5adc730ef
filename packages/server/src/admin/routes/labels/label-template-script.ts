import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * @tare/contracts' template module (renderTemplate, templateProblem) as a browser ES module, so
 * the labels page previews with the very code the storefront's cart helpers and the import run,
 * not a copy. The package ships TypeScript sources (Tare runs from its repository, bin/tare.js
 * watches them), so esbuild, which bundles Tare itself, strips the types once per process.
 */
const SOURCE = join(dirname(createRequire(import.meta.url).resolve('@tare/contracts')), 'template.ts');

let compiled: Promise<string> | undefined;

async function compile(): Promise<string> {
  const result = await build({
    entryPoints: [SOURCE],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export async function labelTemplateScript(_request: FastifyRequest, reply: FastifyReply) {
  compiled ??= compile().catch((error: unknown) => {
    compiled = undefined; // a failed build is tried again by the next request
    throw error;
  });
  return reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', 'public, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .send(await compiled);
}
