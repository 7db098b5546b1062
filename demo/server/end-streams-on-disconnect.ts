/**
 * CopilotRuntime's `onResponse` hook: a streamed response ends quietly when its client goes away.
 *
 * The runtime (1.75) clones every response for its `afterRequestMiddleware` and, when there is
 * none, never reads the clone. A clone shares its stream with the response (a tee), so when the
 * client disconnects mid-stream, the events the runtime is still writing wait on the unread
 * clone until it is garbage collected; that cancels the stream with the reason
 * `[ undefined, 'Response object has been garbage collected' ]`, every waiting write fails with
 * it, and the runtime logs each as `Error running agent:`. Here the runtime's stream is read
 * through a body of our own: it ends when the request is aborted, and however it is cancelled it
 * cancels the runtime's stream with an `AbortError`, which the runtime takes, silently, as a
 * client that left.
 */
export function endStreamsOnDisconnect({ request, response }: { request: Request; response: Response }): Response | void {
  if (!response.body) return;
  const reader = response.body.getReader();
  const clientLeft = () => new DOMException('The client went away.', 'AbortError');
  let ended = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const end = () => {
        if (ended) return;
        ended = true;
        reader.cancel(clientLeft()).catch(() => undefined);
        controller.close();
      };
      if (request.signal.aborted) end();
      else request.signal.addEventListener('abort', end, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (ended) return;
        if (done) {
          ended = true;
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        if (!ended) controller.error(error);
      }
    },
    cancel() {
      ended = true;
      return reader.cancel(clientLeft());
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
