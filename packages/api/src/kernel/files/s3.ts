import type { S3Client } from "@aws-sdk/client-s3";
import type { Config } from "../../config";
import { ServiceError } from "../../errors";
import { type FileStat, type FileStore, keySegments } from "./port";

/** Where the objects live and how to reach them (config.s3, from PARLEY_S3_*). */
export type S3FileStoreConfig = NonNullable<Config["s3"]>;

/** Thrown at start-up when the configured bucket cannot be used; the message names the setting to fix, never the secret. */
export class S3UnavailableError extends Error {
  override name = "S3UnavailableError";
}

/** S3 answers "one page" as at most this many keys, and DeleteObjects takes at most this many. */
const PAGE = 1_000;

type Sdk = typeof import("@aws-sdk/client-s3");
let sdkLoading: Promise<Sdk> | undefined;

/** The AWS SDK, loaded on first use: a process without object storage never pays its ~0.3 s import. */
function loadSdk(): Promise<Sdk> {
  sdkLoading ??= import("@aws-sdk/client-s3");
  return sdkLoading;
}

/** The client for a configuration: path-style when asked, two attempts, short connect timeout. */
function clientFor(sdk: Sdk, config: S3FileStoreConfig): S3Client {
  return new sdk.S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // A store that is down is answered within seconds, not after the SDK's long backoff.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
    // Checksums only where S3 requires them (DeleteObjects): many S3-compatible servers do not
    // understand the SDK's default aws-chunked trailers on PUT.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** The HTTP status of an error S3 answered (undefined when no answer came: refused, timed out). */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

const isMissing = (error: unknown) => statusOf(error) === 404 || (error instanceof Error && (error.name === "NoSuchKey" || error.name === "NotFound"));

/**
 * The error a request sees when the store fails: an envelope error (502, en and zh), never a
 * 500 or a crash; the SDK's error stays as the cause for the log.
 */
function unavailable(error: unknown): ServiceError {
  return Object.assign(new ServiceError("external", "file_store_unavailable"), { cause: error });
}

/**
 * A {@link FileStore} on an S3-compatible object store (AWS S3, MinIO, Ceph, R2, OSS …) through the
 * official AWS SDK: PUT, GET (streamed), HEAD, DELETE, ListObjectsV2 page by page, and
 * delete-by-listing in DeleteObjects batches. Key `a/b.pdf` is the object `<prefix>a/b.pdf`; keys
 * are checked as the port says before any request. A PUT is whole or nothing, as the port asks.
 */
export function createS3FileStore(config: S3FileStoreConfig): FileStore {
  let opened: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const open = () => {
    opened ??= loadSdk().then((sdk) => ({ sdk, client: clientFor(sdk, config) }));
    return opened;
  };
  const base = config.prefix === "" ? "" : `${config.prefix.replace(/\/+$/, "")}/`;
  const Bucket = config.bucket;
  const objectKey = (key: string) => `${base}${keySegments(key).join("/")}`;

  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw unavailable(error);
    }
  }

  async function getObject(key: string) {
    const Key = objectKey(key);
    const { sdk, client } = await open();
    try {
      return await client.send(new sdk.GetObjectCommand({ Bucket, Key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unavailable(error);
    }
  }

  /** Every key under the prefix, page by page (ListObjectsV2 with continuation tokens). */
  async function* pages(prefix: string): AsyncGenerator<string[]> {
    keySegments(prefix, { prefix: true });
    const { sdk, client } = await open();
    let ContinuationToken: string | undefined;
    do {
      const page = await call(() => client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: `${base}${prefix}`, MaxKeys: PAGE, ContinuationToken })));
      yield (page.Contents ?? []).map((object) => object.Key!).filter((key) => key !== undefined);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    async put(key, data) {
      const Key = objectKey(key);
      const Body = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      const { sdk, client } = await open();
      await call(() => client.send(new sdk.PutObjectCommand({ Bucket, Key, Body, ContentLength: Body.byteLength })));
    },
    async get(key) {
      const object = await getObject(key);
      return object?.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
    },
    async read(key) {
      const object = await getObject(key);
      if (!object?.Body) return undefined;
      return await call(() => object.Body!.transformToByteArray());
    },
    async stat(key): Promise<FileStat | undefined> {
      const Key = objectKey(key);
      const { sdk, client } = await open();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key }));
        return { key, sizeBytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw unavailable(error);
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      const { sdk, client } = await open();
      await call(() => client.send(new sdk.DeleteObjectCommand({ Bucket, Key })));
    },
    async list(prefix) {
      const keys: string[] = [];
      for await (const page of pages(prefix)) for (const key of page) keys.push(key.slice(base.length));
      return keys.sort();
    },
    async deletePrefix(prefix) {
      let removed = 0;
      keySegments(prefix, { prefix: true });
      const { sdk, client } = await open();
      // Each page is deleted before the next is asked for; the continuation token still holds,
      // since it marks a position in key order rather than in the (shrinking) listing.
      for await (const page of pages(prefix)) {
        if (page.length === 0) continue;
        const answer = await call(() => client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } })));
        if (answer.Errors && answer.Errors.length > 0) {
          throw unavailable(new Error(`DeleteObjects refused ${answer.Errors.length} keys: ${answer.Errors[0]?.Code} ${answer.Errors[0]?.Message}`));
        }
        removed += page.length;
      }
      return removed;
    },
    locate: (key) => `s3://${Bucket}/${objectKey(key)}`,
  };
}

/**
 * Checks at start-up that the bucket answers a one-key listing with these credentials, so a
 * process configured with S3 refuses to start with a message naming the endpoint, the bucket and
 * the PARLEY_S3_* setting that is wrong (the secret itself is never printed).
 */
export async function checkS3Bucket(config: S3FileStoreConfig): Promise<void> {
  const sdk = await loadSdk();
  const client = clientFor(sdk, config);
  const where = `S3 bucket "${config.bucket}" at ${config.endpoint ?? `AWS (region ${config.region})`}`;
  try {
    await client.send(new sdk.ListObjectsV2Command({ Bucket: config.bucket, MaxKeys: 1, ...(config.prefix ? { Prefix: config.prefix } : {}) }));
  } catch (error) {
    const code = error instanceof Error ? error.name : String(error);
    const status = statusOf(error);
    const setting =
      code === "InvalidAccessKeyId"
        ? "the access key id is unknown: check PARLEY_S3_ACCESS_KEY_ID"
        : code === "SignatureDoesNotMatch"
          ? "the signature was refused: check PARLEY_S3_SECRET_ACCESS_KEY (and PARLEY_S3_ACCESS_KEY_ID)"
          : code === "NoSuchBucket"
            ? "the bucket does not exist: check PARLEY_S3_BUCKET (or create it)"
            : code === "AuthorizationHeaderMalformed" || code === "PermanentRedirect" || code === "IllegalLocationConstraintException"
              ? "the bucket is in another region: check PARLEY_S3_REGION"
              : status === 403
                ? `the credentials were refused (${code}): check PARLEY_S3_ACCESS_KEY_ID and PARLEY_S3_SECRET_ACCESS_KEY and that they may list and write the bucket`
                : status === 301 || status === 400
                  ? `the request was refused (${code}): check PARLEY_S3_REGION and PARLEY_S3_FORCE_PATH_STYLE`
                  : status === undefined
                    ? `it cannot be reached (${error instanceof Error ? error.message : code}): check PARLEY_S3_ENDPOINT`
                    : `it answered ${status} ${code}`;
    throw new S3UnavailableError(`${where} cannot be used: ${setting}`);
  } finally {
    client.destroy();
  }
}
