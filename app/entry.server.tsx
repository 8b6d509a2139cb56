import { Writable } from "node:stream";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isDatabaseUnavailable } from "~/server/db/errors";
import { BACK_SOON_HEADERS } from "~/server/errors.shared";
import { backSoonResponse } from "~/server/http/error-pages";
import { NonceProvider } from "./lib/nonce";
import { SharedMarkupContext } from "./lib/shared-markup";
import { sharedMarkupCache } from "./lib/shared-markup.server";

/**
 * The parts every reader sees alike, rendered once for all the pages of this process (decision 0380).
 * Not in development: the key is the data, so a component edited under Vite would keep its old HTML.
 */
const renderSharedMarkup = import.meta.env.DEV ? null : sharedMarkupCache();

export const streamTimeout = 5_000;

/**
 * Every error a loader or action throws passes here (React Router calls it before it answers).
 * Decision 0470: one that says the database cannot be reached marks the request, and
 * the answer becomes a 503 with Retry-After (handleRequest, handleDataRequest below), never a
 * 500. Anything else is logged as React Router's default does.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (isDatabaseUnavailable(error)) {
    if (context) context.databaseUnavailable = true;
    context?.app?.log.warn(
      { err: error, path: new URL(request.url).pathname },
      "database unavailable: answered 503",
    );
    return;
  }
  if (request.signal.aborted) return;
  // An internal error response (a 404 of React Router's own) carries the error it stands for.
  const internal = isRouteErrorResponse(error) && "error" in error ? (error.error as unknown) : undefined;
  console.error(internal ?? error);
}

/** The `.data` answers of client navigations and forms: 503 with Retry-After during an outage. */
export function handleDataRequest(response: Response, { context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!context?.databaseUnavailable) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(BACK_SOON_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: 503, headers });
}

/**
 * The whole document, rendered and then sent as one body (decision 0352). No page
 * suspends on data (the loaders return everything), so streaming the shell early gained nothing,
 * while React's many small chunks each went through the stream adapters, compression and a
 * socket write of its own; one buffer is compressed and written at once.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Decision 0470: the shell cannot render without the database (the root loader reads it): the static page.
  if (loadContext.databaseUnavailable) return backSoonResponse();
  return new Promise<Response>((resolve, reject) => {
    const nonce = loadContext.nonce;
    let shellRendered = false;
    const chunks: Array<string | Uint8Array> = [];
    const document = new Writable({
      // React writes its longer strings as they are: they are encoded once, into the body below.
      decodeStrings: false,
      write(chunk: string | Uint8Array, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(
          new Response(oneChunkStream(documentBytes(chunks)), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        );
        done();
      },
    });
    const options: RenderToPipeableStreamOptions = {
      nonce,
      // Every Suspense boundary inline, where it stands: React otherwise sends a completed boundary
      // found after the first 12,800 bytes as a fallback with its content moved to the end, shown
      // by a script, so without JavaScript it would stay hidden. The document is sent at once
      // anyway (above). Decision 0370: parts hydrated later are such boundaries (app/lib/lazy-load.ts).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(document);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Before the shell, onShellError answers (the error page); after it, the error is only logged.
        if (shellRendered) console.error(error);
      },
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <SharedMarkupContext value={renderSharedMarkup}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </SharedMarkupContext>
      </NonceProvider>,
      options,
    );
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * The document's chunks in one buffer, each string encoded straight into it. Every byte buffer
 * here lives outside V8's heap, and each megabyte of them allocated brings the next full garbage
 * collection closer (V8 starts one per 64 MB or so): per page, an encoded copy of each string and
 * then of the whole joined document was two buffers too many (decision 0352).
 */
export function documentBytes(chunks: ReadonlyArray<string | Uint8Array>): Buffer {
  let length = 0;
  for (const chunk of chunks)
    length += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
  const bytes = Buffer.allocUnsafeSlow(length);
  let offset = 0;
  for (const chunk of chunks) {
    if (typeof chunk === "string") offset += bytes.write(chunk, offset);
    else {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  // The buffer is not zeroed: whatever happens, no byte that was not written is sent.
  return bytes.subarray(0, offset);
}

/** A body of these bytes as they are (a Response given bytes directly keeps a copy of them). */
function oneChunkStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
