// `npm start`: install what is missing, build, and serve the page.
import { ensureNodeModules } from './setup.mjs';
import { say } from './shell.mjs';

ensureNodeModules();
const { build } = await import('./build.mjs');
const { serve } = await import('./serve.mjs');

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`freshlab: PORT must be a port number from 1 to 65535 (got "${process.env.PORT}")`);
  process.exit(2);
}
try {
  await build();
} catch (error) {
  console.error(`freshlab: build failed: ${error.message}`);
  process.exit(1);
}
try {
  await serve('dist', port);
} catch (error) {
  if (error.code === 'EADDRINUSE') {
    console.error(`freshlab: port ${port} is already in use. Stop the program using it, or choose another port: PORT=8081 npm start`);
  } else {
    console.error(`freshlab: cannot serve on port ${port}: ${error.message}`);
  }
  process.exit(1);
}
say(`serving the page at http://127.0.0.1:${port}/ (Ctrl-C to stop)`);
