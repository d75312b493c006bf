// esbuild's bundling as the service's build (scripts/build-service.mjs) and
// the test run (scripts/test.mjs) use it: one output file per entry point, the
// code entries share in chunks/ (code splitting, so a command's `import()` of
// a module loads only what that module needs), and the libraries of
// node_modules inside the bundle unless named in `unbundled`. Node then loads a
// few files instead of about a thousand modules: the API's modules one by one
// cost each process (every `svc` command and role, every test file) about 1 s
// of CPU.
//
// Two things keep the bundle behaving as the modules did:
//  - `import.meta.url` in our sources is the URL each file would have as its
//    own module in `outdir` (the layout under `outbase`), so a path found from
//    it (dist/web, the repository's root) is the same bundled or not;
//  - CommonJS libraries inside the bundle get a `require` for node's built-in
//    modules (ES modules have none).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Bundles `entryPoints` into `outdir` (laid out as under `outbase`); resolves when written, rejects on a build error. */
export function bundle({ entryPoints, outdir, outbase, unbundled }) {
  return build({
    entryPoints,
    outdir,
    outbase,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [
      {
        name: 'bundle-as-modules',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) => (unbundled.has(packageOf(args.path)) ? { external: true } : undefined));
          builder.onLoad({ filter: /\.ts$/ }, (args) => {
            if (args.path.split(path.sep).includes('node_modules')) return undefined;
            const own = path.resolve(outdir, path.relative(outbase, args.path).replace(/\.ts$/, '.js'));
            // split/join: the URL is data, never a replacement pattern.
            return { contents: fs.readFileSync(args.path, 'utf8').split('import.meta.url').join(JSON.stringify(pathToFileURL(own).href)), loader: 'ts' };
          });
        },
      },
    ],
  });
}
