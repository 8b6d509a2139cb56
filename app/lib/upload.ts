import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";

/**
 * Form posts with upload progress (spec 2 §2 'Uploading Post...', 'Uploading
 * Photos...'). React Router's fetchers use fetch(), which reports no upload
 * progress, so the composer sends its multipart form with XMLHttpRequest to
 * the route's action — through React Router's own data endpoint (`<path>.data`,
 * the URL its fetchers post to), so the action is the page's one action and its
 * answer is decoded as React Router encodes it (decision 0090).
 */

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 1. */
  fraction: number;
}

export type UploadResult<T> =
  /** The action's data, with its HTTP status (a refusal may come with 400, 403…). */
  | { kind: "data"; status: number; data: T }
  /** The action (or a layout) redirected; follow `location`. */
  | { kind: "redirect"; status: number; location: string }
  /** Anything else: a thrown error, a broken answer. */
  | { kind: "error"; status: number };

export interface UploadOptions {
  onProgress?(progress: UploadProgress): void;
  signal?: AbortSignal;
}

/** React Router's data URL of a path: `/create/post?goBack=home` → `/create/post.data?goBack=home`. */
export function actionDataUrl(path: string, origin: string): URL {
  const url = new URL(path, origin);
  url.pathname = url.pathname === "/" ? "/_root.data" : `${url.pathname.replace(/\/+$/, "")}.data`;
  return url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

async function decode<T>(status: number, body: ArrayBuffer): Promise<UploadResult<T>> {
  const stream = new Response(body).body;
  if (!stream) return { kind: "error", status };
  const { done, value } = await decodeViaTurboStream(stream, window);
  await done;
  if (isRecord(value)) {
    if (typeof value.redirect === "string") {
      const redirectStatus = typeof value.status === "number" ? value.status : 302;
      return { kind: "redirect", status: redirectStatus, location: value.redirect };
    }
    if ("data" in value) return { kind: "data", status, data: value.data as T };
  }
  return { kind: "error", status };
}

/**
 * Posts `form` to the action of `path` (a page URL, e.g. `/create/post`), reporting
 * upload progress. Resolves with the action's answer; rejects only when the
 * request could not be made or was aborted (the composer says 'Something went wrong.').
 */
export function uploadForm<T>(
  path: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<UploadResult<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", actionDataUrl(path, window.location.origin));
    xhr.responseType = "arraybuffer";
    xhr.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable || !options.onProgress) return;
      options.onProgress({
        loaded: event.loaded,
        total: event.total,
        fraction: event.total > 0 ? event.loaded / event.total : 0,
      });
    });
    xhr.addEventListener("load", () => {
      decode<T>(xhr.status, xhr.response as ArrayBuffer).then(resolve, () =>
        resolve({ kind: "error", status: xhr.status }),
      );
    });
    xhr.addEventListener("error", () => reject(new Error("The upload failed: network error")));
    xhr.addEventListener("abort", () => reject(new DOMException("The upload was aborted", "AbortError")));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException("The upload was aborted", "AbortError"));
        return;
      }
      options.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
