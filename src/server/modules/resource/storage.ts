// Where stored files live. Every object's key starts with its tenant's id ("<tenant>/upload/
// <yyyyMMdd>/<uuid>.<ext>"), so one tenant's objects never share a name with another's.
// - LocalDiskStorage: files under the storage directory (DATA_DIR/files by default);
// - S3Storage: any S3-compatible service (MinIO, Alibaba OSS, Tencent COS, Qiniu, AWS) through the
//   AWS SDK's client, which is imported only when such a configuration is used.
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  size?: number;
}

export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
}

/** Keys are made by the server; anything else is refused before it reaches a file system or bucket. */
export const OBJECT_KEY = /^[0-9A-Za-z_-]{1,12}\/upload\/\d{8}\/[0-9a-f]{32}\.[a-z0-9]{1,10}$/;

function assertKey(key: string) {
  if (!OBJECT_KEY.test(key)) throw new Error(`refused object key ${JSON.stringify(key)}`);
}

export class LocalDiskStorage implements ObjectStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    assertKey(key);
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep)) throw new Error(`refused object key ${JSON.stringify(key)}`);
    return full;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    // written aside and renamed: a reader never sees half a file
    const temporary = `${full}.${randomUUID()}.part`;
    try {
      await writeFile(temporary, body, { flag: 'wx' });
      await rename(temporary, full);
    } catch (err) {
      await unlink(temporary).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const full = this.path(key);
    try {
      const info = await stat(full);
      if (!info.isFile()) return undefined;
      return { body: createReadStream(full), size: info.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await unlink(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** The part of the SDK's S3Client this uses (a fake in tests). */
export interface S3Api {
  send(command: unknown): Promise<any>;
}

/** The SDK's command classes. */
export interface S3Commands {
  PutObjectCommand: new (input: any) => unknown;
  GetObjectCommand: new (input: any) => unknown;
  DeleteObjectCommand: new (input: any) => unknown;
}

export class S3Storage implements ObjectStorage {
  constructor(
    private readonly client: S3Api,
    private readonly commands: S3Commands,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertKey(key);
    await this.client.send(
      new this.commands.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertKey(key);
    try {
      const out = await this.client.send(new this.commands.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out?.Body ? { body: out.Body as Readable, size: out.ContentLength } : undefined;
    } catch (err) {
      const name = (err as { name?: string; Code?: string }).name ?? (err as { Code?: string }).Code;
      if (
        name === 'NoSuchKey' ||
        name === 'NotFound' ||
        (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
      )
        return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new this.commands.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/** An S3-compatible storage configuration (an `oss` record with its secret). */
export interface S3Settings {
  category: string;
  endpoint: string;
  region?: string | null;
  bucketName: string;
  accessKey: string;
  secretKey: string;
}

/** Builds the S3 client of a configuration; the default loads the AWS SDK on first use. */
export type S3Factory = (settings: S3Settings) => Promise<{ client: S3Api; commands: S3Commands }>;

/** MinIO and generic S3-compatible servers want path-style URLs; the clouds take bucket host names. */
const PATH_STYLE_CATEGORIES = new Set(['1', '6']);

export const sdkS3Factory: S3Factory = async (settings) => {
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    endpoint: settings.endpoint,
    region: settings.region || 'us-east-1',
    credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey },
    forcePathStyle: PATH_STYLE_CATEGORIES.has(settings.category),
  });
  return { client, commands: sdk };
};
