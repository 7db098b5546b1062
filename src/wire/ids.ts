/**
 * The reasons and ids of interrupts as the server sends them and the browser reads them back:
 * written by the backends of `normalizeInterrupts()` (src/backends) and the interrupt builders,
 * read by `unwrapInterrupt`. An id format one backend alone reads (its own prefixes) stays in
 * that backend's module.
 */

/** The reason @ag-ui/mastra gives every tool suspend. */
export const MASTRA_SUSPEND_REASON = 'mastra:tool_suspend';

/** The id @ag-ui/mastra gives a suspend: `<suspending runId>::<toolCallId>`. */
export const mastraInterruptId = (runId: string, toolCallId: string) => `${runId}::${toolCallId}`;

/** The reason @ag-ui/langgraph gives an interrupt whose value names none. */
export const LANGGRAPH_INTERRUPT_REASON = 'langgraph:interrupt';

/** Prefix of the ids given to LangGraph interrupts; LangGraph's own id follows it. */
export const LANGGRAPH_INTERRUPT_ID_PREFIX = 'langgraph::';

/** `langgraph::<LangGraph's own interrupt id>`: stable, distinct, and tells a resume where it goes. */
export const langGraphInterruptId = (langGraphId: string) => `${LANGGRAPH_INTERRUPT_ID_PREFIX}${langGraphId}`;

/** The id the interrupt builders give when none is passed: `<reason>::<toolCallId>`. */
export const builtInterruptId = (reason: string, toolCallId: string) => `${reason}::${toolCallId}`;
