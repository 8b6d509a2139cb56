/**
 * Reads a form post whose body may carry a file, refusing bodies over `maxBytes`
 * before they are parsed or held whole (React Router 7 has no upload parser of its
 * own; `request.formData()` would buffer any size). The platform's parser then
 * reads multipart and url-encoded bodies alike.
 */
export async function readUploadForm(request: Request, maxBytes: number): Promise<FormData | "too-large"> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) return "too-large";
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      // A body without Content-Length (chunked) is counted as it arrives.
      if (total > maxBytes) {
        await reader.cancel();
        return "too-large";
      }
      chunks.push(value);
    }
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const contentType = request.headers.get("Content-Type") ?? "application/x-www-form-urlencoded";
  return new Response(body, { headers: { "Content-Type": contentType } }).formData();
}
