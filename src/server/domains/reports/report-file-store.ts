import { Readable, Writable } from 'node:stream';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reportFileChunks, reportFiles } from '../../db/schema';

/**
 * A report file is stored in pieces of this size (docs/reports.md#how-a-built-file-is-stored): the
 * builder holds one piece (and postgres.js its hex text) at a time, never the whole file.
 */
export const PIECE_BYTES = 1024 * 1024;

/**
 * Where one build run writes its file: the bytes given to `write` are cut into pieces of
 * PIECE_BYTES, each inserted (and awaited) as soon as it is full, under this run's id.
 */
export class PieceWriter {
  private seq = 0;
  private size = 0;
  private readonly piece = Buffer.allocUnsafe(PIECE_BYTES);
  private filled = 0;

  constructor(
    private readonly db: Db,
    readonly fileId: string,
    readonly runId: string,
  ) {}

  /** Bytes written so far. */
  get bytes(): number {
    return this.size;
  }

  async write(bytes: Buffer): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(PIECE_BYTES - this.filled, bytes.length - at);
      bytes.copy(this.piece, this.filled, at, at + n);
      this.filled += n;
      at += n;
      this.size += n;
      if (this.filled === PIECE_BYTES) await this.store();
    }
  }

  /** Stores the last, partial piece (an empty file is one empty piece). */
  async end(): Promise<void> {
    if (this.filled > 0 || this.seq === 0) await this.store();
  }

  private async store() {
    // The insert has sent the piece when it answers, so the buffer is free to fill again.
    await this.db
      .insert(reportFileChunks)
      .values({ fileId: this.fileId, runId: this.runId, seq: this.seq, data: this.piece.subarray(0, this.filled) });
    this.seq++;
    this.filled = 0;
  }

  /**
   * A Writable over this writer for a stream producer (exceljs): each write is acknowledged once
   * its bytes are copied or, when they fill a piece, stored, so the producer waits on the database.
   */
  stream(): Writable {
    return new Writable({
      highWaterMark: PIECE_BYTES,
      write: (chunk: Buffer, _enc, done) => {
        this.write(chunk).then(() => done(), done);
      },
      final: (done) => {
        this.end().then(() => done(), done);
      },
    });
  }

  /**
   * Makes this run's pieces the file, in one update and only if no other run has finished it
   * first; then removes the pieces of every other run (a run still writing removes its own when it
   * finds the file ready). Answers whether this run's file was the one kept.
   */
  async finish(): Promise<boolean> {
    const done = await this.db
      .update(reportFiles)
      .set({ status: 'ready', progress: 100, runId: this.runId, size: this.size, error: null })
      .where(and(eq(reportFiles.id, this.fileId), ne(reportFiles.status, 'ready')))
      .returning({ id: reportFiles.id });
    if (done.length) {
      await this.db
        .delete(reportFileChunks)
        .where(and(eq(reportFileChunks.fileId, this.fileId), ne(reportFileChunks.runId, this.runId)));
    } else {
      await this.discard();
    }
    return done.length > 0;
  }

  /** Removes this run's pieces (a run that failed, or that another run finished before). */
  async discard(): Promise<void> {
    await this.db
      .delete(reportFileChunks)
      .where(and(eq(reportFileChunks.fileId, this.fileId), eq(reportFileChunks.runId, this.runId)));
  }
}

async function readPiece(db: Db, fileId: string, runId: string, seq: number): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ data: reportFileChunks.data })
    .from(reportFileChunks)
    .where(and(eq(reportFileChunks.fileId, fileId), eq(reportFileChunks.runId, runId), eq(reportFileChunks.seq, seq)))
    .limit(1);
  return row?.data;
}

/**
 * The stored file of run `runId` as a stream, one piece per query, in order. The first piece is
 * read before answering, so a failing read is an error status rather than a 200 cut off; a file
 * whose pieces do not add up to `size` ends the stream with an error.
 */
export async function readStoredFile(db: Db, fileId: string, runId: string, size: number): Promise<Readable> {
  const first = await readPiece(db, fileId, runId, 0);
  if (!first) throw new Error(`report file ${fileId} has no stored pieces`);
  return Readable.from(
    (async function* () {
      let sent = 0;
      let piece: Buffer | undefined = first;
      for (let seq = 1; piece; seq++) {
        sent += piece.length;
        yield piece;
        piece = sent < size ? await readPiece(db, fileId, runId, seq) : undefined;
      }
      if (sent !== size) throw new Error(`report file ${fileId}: ${sent} of ${size} bytes stored`);
    })(),
  );
}
