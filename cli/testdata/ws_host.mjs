// A host of the tests: the TypeScript SDK's WebSocketClientTransport
// lists the tools of the server at URL and calls echo, then prints both
// answers as one JSON line. Run: node --experimental-websocket ws_host.mjs SDK_DIR URL
import { pathToFileURL } from 'node:url';

const [sdk, url] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(sdk + p).href);
const { Client } = await load('/dist/esm/client/index.js');
const { WebSocketClientTransport } = await load('/dist/esm/client/websocket.js');

const client = new Client({ name: 'ws-host', version: '1.0.0' });
await client.connect(new WebSocketClientTransport(new URL(url)));
const tools = await client.listTools();
const echo = await client.callTool({ name: 'echo', arguments: { message: 'hi through the proxy' } });
console.log(JSON.stringify({ tools: tools.tools.map((t) => t.name).sort(), echo }));
await client.close();
