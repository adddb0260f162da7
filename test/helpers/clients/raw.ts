// Raw HTTP for the tests that must control bytes the SDKs would not send (malformed JSON, wrong
// content types, oversize bodies, disconnecting mid-stream): the smallest valid request of each
// protocol, and a node:http poster that reports what came back.
import { request } from 'undici';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { ProtocolName } from '../../../src/shared/model/types.js';

export interface RawRequest {
  path: string;
  body: string;
}

/** The smallest valid request of a protocol naming `model` (a pool), with one user message. */
export function minimalRequest(protocol: ProtocolName, model: string, prompt: string, stream: boolean): RawRequest {
  const text = JSON.stringify(prompt);
  const m = encodeURIComponent(model);
  switch (protocol) {
    case 'openai':
      return { path: '/v1/chat/completions', body: `{"model":${JSON.stringify(model)},"stream":${stream},"messages":[{"role":"user","content":${text}}]}` };
    case 'responses':
      return { path: '/v1/responses', body: `{"model":${JSON.stringify(model)},"stream":${stream},"input":${text}}` };
    case 'anthropic':
      return {
        path: '/v1/messages',
        body: `{"model":${JSON.stringify(model)},"max_tokens":64,"stream":${stream},"messages":[{"role":"user","content":${text}}]}`,
      };
    case 'gemini':
      return {
        path: stream ? `/v1beta/models/${m}:streamGenerateContent?alt=sse` : `/v1beta/models/${m}:generateContent`,
        body: `{"contents":[{"role":"user","parts":[{"text":${text}}]}]}`,
      };
    case 'bedrock':
      return { path: `/model/${m}/${stream ? 'converse-stream' : 'converse'}`, body: `{"messages":[{"role":"user","content":[{"text":${text}}]}]}` };
    case 'ollama':
      return { path: '/api/chat', body: `{"model":${JSON.stringify(model)},"stream":${stream},"messages":[{"role":"user","content":${text}}]}` };
  }
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RawPostOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Send the body in these pieces with chunked transfer encoding (no content-length). */
  chunks?: readonly string[];
  timeoutMs?: number;
}

/**
 * One request over a fresh connection. The answer counts once its head and body arrived; a
 * socket error after that (the server closing while the client still uploads) is ignored.
 */
export function rawPost(url: string, body: string, opts: RawPostOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
    if (opts.chunks === undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest(url, { method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer from ${url} in time`)));
    req.on('error', reject);
    if (opts.chunks !== undefined) for (const piece of opts.chunks) req.write(piece);
    else if (body !== '') req.write(body);
    req.end();
  });
}

/**
 * Sends a streaming request, waits for the first response bytes, then destroys the connection
 * (a client going away mid-stream). Resolves with the status and the bytes seen before leaving.
 */
export function postAndLeaveAfterFirstBytes(url: string, body: string, timeoutMs = 10_000): Promise<{ status: number; firstBytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, agent: false },
      (res) => {
        res.once('data', (c: Buffer) => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, firstBytes: c });
        });
        res.once('end', () => reject(new Error('the stream ended before the client left')));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no first bytes from ${url} in time`)));
    req.on('error', reject); // a no-op once resolved: the destroy is the point
    req.end(body);
  });
}

/** Sends a request and destroys the connection after `afterMs`, whether or not anything came back. */
export function postAndLeaveAfter(url: string, body: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
    });
    req.on('error', () => undefined); // the destroy below is the point
    req.end(body);
    setTimeout(() => {
      req.destroy();
      resolve();
    }, afterMs);
  });
}

/** One OpenAI chat completion ('hi') to `model` with no key; resolves with the status, the body read and dropped. */
export async function chatStatus(url: string, model: string): Promise<number> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.body.dump();
  return res.statusCode;
}
