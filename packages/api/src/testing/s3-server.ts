import { type ChildProcess, spawn } from "node:child_process";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

/** An S3-protocol server a test started on loopback, with its own keys and bucket. */
export interface S3Server {
  /** `http://127.0.0.1:port` (what PARLEY_S3_ENDPOINT takes). */
  endpoint: string;
  port: number;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The PARLEY_S3_* settings for a process that stores its files here (path-style, the given prefix). */
  env(prefix?: string): Record<string, string>;
  /** Requests refused for a bad or missing signature since the start (a test can check the check ran). */
  refused(): number;
  /** Stops answering (closes the port and every open connection) and keeps the objects. */
  kill(): Promise<void>;
  /** Answers again on the same port with the same objects (after {@link S3Server.kill}). */
  start(): Promise<void>;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();
const sha256Hex = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why a request's AWS Signature Version 4 does not hold, or undefined when it does. */
export function sigV4Problem(
  request: http.IncomingMessage,
  keys: { accessKeyId: string; secretAccessKey: string },
): { code: string; message: string } | undefined {
  const authorization = request.headers.authorization;
  if (!authorization) return { code: "AccessDenied", message: "Anonymous requests are refused: sign with AWS Signature Version 4" };
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return { code: "AccessDenied", message: "Only AWS4-HMAC-SHA256 header signatures are accepted" };
  const [, accessKeyId, day, region, service, signedHeaders, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId) return { code: "InvalidAccessKeyId", message: "The AWS Access Key Id you provided does not exist in our records." };
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  if (!amzDate.startsWith(day!)) return { code: "AccessDenied", message: "x-amz-date does not match the credential scope" };
  const url = request.url ?? "/";
  const queryStart = url.indexOf("?");
  const canonicalUri = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? "" : url.slice(queryStart + 1);
  const canonicalQuery = rawQuery
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const equals = part.indexOf("=");
      const name = decodeURIComponent(equals === -1 ? part : part.slice(0, equals));
      const value = equals === -1 ? "" : decodeURIComponent(part.slice(equals + 1).replace(/\+/g, "%20"));
      return [rfc3986(name), rfc3986(value)] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalHeaders = signedHeaders!
    .split(";")
    .map((name) => {
      const raw = request.headers[name];
      const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
      return `${name}:${value.trim().replace(/\s+/g, " ")}\n`;
    })
    .join("");
  const payloadHash = String(request.headers["x-amz-content-sha256"] ?? "UNSIGNED-PAYLOAD");
  const canonicalRequest = [request.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day!), region!), service!), "aws4_request");
  const expected = createHmac("sha256", signingKey).update(stringToSign, "utf8").digest();
  if (!timingSafeEqual(expected, Buffer.from(signature!, "hex"))) {
    return {
      code: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    };
  }
  return undefined;
}

/**
 * The s3rver process: s3rver on its own loopback port. It runs under `--openssl-legacy-provider`
 * because it makes ListObjectsV2 continuation tokens with DES, which Node's OpenSSL 3 refuses
 * otherwise (a truncated listing would answer 500).
 */
const CHILD = `
const [modulePath, accountPath, settings] = process.argv.slice(1);
const { port, directory, bucket, accessKeyId, secretAccessKey } = JSON.parse(settings);
require(accountPath).DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
const S3rver = require(modulePath);
new S3rver({ address: "127.0.0.1", port, directory, silent: true, vhostBuckets: false, configureBuckets: [{ name: bucket, configs: [] }] })
  .run()
  .then(() => process.stdout.write("ready\\n"), (error) => { process.stderr.write(String(error)); process.exit(1); });
`;

async function launchS3rver(settings: {
  port: number;
  directory: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", CHILD, require.resolve("s3rver"), require.resolve("s3rver/lib/models/account"), JSON.stringify(settings)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start within 20 s: ${log}`)), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}: ${log}`));
    });
  });
  return child;
}

/**
 * Starts s3rver (an S3-protocol server from the npm registry) in a temp directory on loopback, with
 * one bucket and a random key pair, behind a front server on a free 127.0.0.1 port that checks
 * signatures. s3rver itself checks only the access key id of a Version 4 signature (its SigV4
 * calculation is unimplemented) and lets unsigned requests through, so every request first passes
 * {@link sigV4Problem}: a wrong secret, a wrong key id or no signature is answered 403 with S3's
 * error document, as S3 would; signed requests are passed on unchanged. Ended by its own pid.
 */
export async function startS3Server(options: { bucket?: string; region?: string } = {}): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-s3-"));
  const bucket = options.bucket ?? "parley-test";
  const region = options.region ?? "us-east-1";
  const accessKeyId = `AKIA${randomBytes(8).toString("hex").toUpperCase()}`;
  const secretAccessKey = randomBytes(24).toString("base64url");
  const innerPort = await freePort();
  let child: ChildProcess;
  try {
    child = await launchS3rver({ port: innerPort, directory: dir, bucket, accessKeyId, secretAccessKey });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let refusedCount = 0;
  const server = http.createServer((request, response) => {
    const problem = sigV4Problem(request, { accessKeyId, secretAccessKey });
    if (problem) {
      refusedCount += 1;
      request.resume();
      response.writeHead(403, { "content-type": "application/xml" });
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${problem.code}</Code><Message>${problem.message}</Message></Error>`);
      return;
    }
    const forward = http.request({ host: "127.0.0.1", port: innerPort, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forward.on("error", () => response.destroy());
    response.on("close", () => forward.destroy());
    request.pipe(forward);
  });
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const port = await freePort();
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  const endChild = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.pid === undefined) return resolve();
      child.once("exit", () => resolve());
      process.kill(child.pid, "SIGTERM");
    });
  let stopping: Promise<void> | undefined;
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: (prefix = "") => ({
      PARLEY_S3_ENDPOINT: endpoint,
      PARLEY_S3_BUCKET: bucket,
      PARLEY_S3_REGION: region,
      PARLEY_S3_ACCESS_KEY_ID: accessKeyId,
      PARLEY_S3_SECRET_ACCESS_KEY: secretAccessKey,
      PARLEY_S3_FORCE_PATH_STYLE: "true",
      PARLEY_S3_PREFIX: prefix,
    }),
    refused: () => refusedCount,
    kill,
    start,
    stop() {
      stopping ??= kill()
        .then(endChild)
        .then(() => fs.rmSync(dir, { recursive: true, force: true }));
      return stopping;
    },
  };
}
