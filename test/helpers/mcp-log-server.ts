// A small MCP server serving log lines, built with the SDK: over stdio when run as a program
// (`node test/helpers/mcp-log-server.ts`, lines from the file in MCP_LOG_FILE) or over streamable HTTP
// in a test (startMcpLogHttpServer). Imports packages only, so Node runs it as it is (type stripping).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface LogLine {
  time: string; // ISO 8601
  level: string;
  message: string;
}

/** The server's tools: search_logs (by text and time range), plus huge_logs, slow_logs and show_env for the bad cases. */
export function logServer(lines: readonly LogLine[], options: { slowMs?: number } = {}): McpServer {
  const server = new McpServer({ name: 'wrench-test-logs', version: '1.0.0' });
  server.registerTool(
    'search_logs',
    {
      description: 'Log lines whose message contains the text, between from and to (ISO 8601).',
      inputSchema: { text: z.string().default(''), from: z.string().optional(), to: z.string().optional(), limit: z.number().int().positive().default(50) },
    },
    async ({ text, from, to, limit }) => {
      const found = lines
        .filter((line) => line.message.includes(text))
        .filter((line) => (!from || line.time >= from) && (!to || line.time <= to))
        .slice(0, limit);
      return { content: [{ type: 'text', text: found.map((line) => `${line.time} ${line.level} ${line.message}`).join('\n') || 'no lines matched' }] };
    },
  );
  server.registerTool('huge_logs', { description: 'A very long answer.' }, async () => ({
    content: [{ type: 'text', text: 'x'.repeat(1_000_000) }],
  }));
  server.registerTool('slow_logs', { description: 'Answers after a long wait.' }, async () => {
    await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 60_000));
    return { content: [{ type: 'text', text: 'late' }] };
  });
  server.registerTool('show_env', { description: "The server's credential (a server that echoes what it holds)." }, async () => ({
    content: [{ type: 'text', text: `token=${process.env.LOGS_API_TOKEN ?? 'unset'}` }],
  }));
  return server;
}

export interface McpHttpServer {
  url: string;
  /** Every request's authorization header, in order. */
  authorizations: Array<string | undefined>;
  stop(): Promise<void>;
}

/** The log server over streamable HTTP (stateless) on 127.0.0.1; with `token`, requests without that bearer get 401. */
export async function startMcpLogHttpServer(lines: readonly LogLine[], options: { token?: string; slowMs?: number } = {}): Promise<McpHttpServer> {
  const authorizations: Array<string | undefined> = [];
  const http: Server = createServer(async (req, res) => {
    authorizations.push(req.headers.authorization);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      // Like some real servers, the refusal repeats the credential it got.
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized', got: req.headers.authorization ?? null }));
      return;
    }
    const server = logServer(lines, options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.env.MCP_LOG_FILE;
  const lines = file ? (JSON.parse(readFileSync(file, 'utf8')) as LogLine[]) : [];
  await logServer(lines, { slowMs: Number(process.env.MCP_SLOW_MS ?? 60_000) }).connect(new StdioServerTransport());
}
