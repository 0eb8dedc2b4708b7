/**
 * A merchant's front end built as a merchant builds it: @wallet-checkout/js and @wallet-checkout/react
 * packed by npm and unpacked into the node_modules of a project outside the repository (React and
 * React DOM beside them, resolved from where they really live), and each page's script bundled from
 * there by esbuild, React in its development build (so StrictMode mounts, unmounts and mounts
 * again). The pages serve these scripts themselves: nothing comes from the repository's sources.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { installPacked } from '../../testing/npm-pack';

/** The React page's script: `window.app.render(props)` renders `<WalletCheckout {...props}>` under StrictMode, synchronously, with callbacks made anew each render; `render(null)` renders nothing. */
const REACT_APP = `
import { createElement, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { WalletCheckout } from '@wallet-checkout/react';

const root = createRoot(document.getElementById('app'));
const calls = (window.callbacks = []);
const CALLBACKS = ['onReady', 'onSuccess', 'onDecline', 'onError', 'onCancel'];
window.app = {
  render(props) {
    const callbacks = Object.fromEntries(CALLBACKS.map((name) => [name, (detail) => calls.push({ name, detail })]));
    flushSync(() => root.render(createElement(StrictMode, null, props ? createElement(WalletCheckout, { ...props, ...callbacks, id: 'checkout' }) : null)));
  },
};
`;

/** The custom element's page script: the element's entry, nothing else. */
const ELEMENT_APP = `import '@wallet-checkout/js/element';`;

export interface FrontEndApp {
  reactApp: string;
  elementApp: string;
}

/** Packs, installs and bundles; `dispose` removes the project. */
export async function buildFrontEndApp(): Promise<FrontEndApp & { dispose(): void }> {
  const project = mkdtempSync(join(tmpdir(), 'front-end-app-'));
  try {
    await installPacked('packages/js', '@wallet-checkout/js', project);
    await installPacked('packages/react', '@wallet-checkout/react', project);
    for (const name of ['react', 'react-dom']) symlinkSync(resolve('node_modules', name), join(project, 'node_modules', name), 'dir');
    mkdirSync(join(project, 'src'));
    const bundle = async (name: string, code: string) => {
      writeFileSync(join(project, 'src', `${name}.js`), code);
      const { outputFiles } = await build({
        entryPoints: [join(project, 'src', `${name}.js`)],
        absWorkingDir: project,
        bundle: true,
        write: false,
        format: 'iife',
        target: 'es2022',
        define: { 'process.env.NODE_ENV': '"development"' },
        logLevel: 'warning',
      });
      const [output] = outputFiles;
      if (!output) throw new Error(`esbuild wrote nothing for ${name}`);
      return output.text;
    };
    const app = { reactApp: await bundle('react-app', REACT_APP), elementApp: await bundle('element-app', ELEMENT_APP) };
    return { ...app, dispose: () => rmSync(project, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(project, { recursive: true, force: true });
    throw error;
  }
}
