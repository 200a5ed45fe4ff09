package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The part an adapter writes: each method forwards a command of protocol v1 to the runtime under
 * test. A fresh one is made at every {@code start}. Any method may throw {@link Unsupported} (the
 * case is skipped) or {@link Failure} (the case is an error); any other exception is a bug of the
 * adapter, answered as an error naming it, with its stack trace.
 */
public interface RuntimeAdapter {
  /** Replaces the registry with these tools. */
  void register(List<Tool> tools);

  /** The input schema the view ({@code get_api_spec} or {@code direct}) publishes for the tool. */
  JsonNode describe(String tool, String view);

  /**
   * Makes the call as it arrives on {@code transport} ({@code direct}, {@code structured}, {@code
   * http}), giving the tool {@code handler} as its body: null when the call went through to the
   * tool, or the error object the caller got when the runtime refused it.
   */
  ObjectNode invoke(String transport, String tool, JsonNode arguments, Handler handler);

  /**
   * The arguments that reach a tool with this input schema; throws {@link Rejected} when the
   * runtime refuses them before any tool could run.
   */
  JsonNode normalize(JsonNode inputSchema, JsonNode arguments);

  /** Called when the session ends ({@code stop}). */
  default void close() {}
}
