package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Protocol v1: one request in, one response out, in front of one runtime at a time. Thread-safe:
 * requests are answered one after the other.
 */
public final class Session {
  private final Implementation implementation;
  private final Supplier<? extends RuntimeAdapter> newRuntime;
  private RuntimeAdapter runtime;

  /** A session answering as {@code implementation}, making a runtime with {@code newRuntime}. */
  public Session(Implementation implementation, Supplier<? extends RuntimeAdapter> newRuntime) {
    this.implementation = implementation;
    this.newRuntime = newRuntime;
  }

  /** A response, and whether its request was {@code stop}. */
  public record Answer(ObjectNode response, boolean stop) {}

  /** The response to a request (a tree of {@link Json#read}). Never throws. */
  public synchronized Answer handle(JsonNode request) {
    if (request == null || !request.isObject()) {
      return new Answer(error(null, "the request is not a JSON object"), false);
    }
    JsonNode seq = request.has("seq") ? request.get("seq") : Json.NODES.nullNode();
    ObjectNode response = Json.object();
    response.set("seq", seq);
    try {
      response.setAll(answer(request));
    } catch (Unsupported why) {
      response.put("unsupported", String.valueOf(why.getMessage()));
    } catch (Failure why) {
      response.put("error", String.valueOf(why.getMessage()));
    } catch (Throwable crash) { // the adapter's own bug: its stack trace in the reason; keep serving
      response = Json.object();
      response.set("seq", seq);
      response.put("error", adapterBug(crash));
    }
    try {
      Json.write(response);
    } catch (IllegalArgumentException why) {
      response = Json.object();
      response.set("seq", seq);
      response.put("error", "the adapter could not write its answer as JSON: " + why.getMessage());
    }
    JsonNode cmd = request.get("cmd");
    return new Answer(response, cmd != null && "stop".equals(cmd.asText()));
  }

  /** {@code {"seq": seq, "error": message}}. */
  public static ObjectNode error(JsonNode seq, String message) {
    ObjectNode response = Json.object();
    response.set("seq", seq == null ? Json.NODES.nullNode() : seq);
    response.put("error", message);
    return response;
  }

  /**
   * The reason an exception the runtime threw is answered with, and written to stderr: {@code the
   * adapter failed: } and its stack trace (the exception's class and message first, then its
   * frames and causes).
   */
  public static String adapterBug(Throwable crash) {
    StringWriter trace = new StringWriter();
    crash.printStackTrace(new PrintWriter(trace));
    String reason = "the adapter failed: " + trace.toString().stripTrailing();
    System.err.println("[tool-conformance-adapter] " + reason);
    System.err.flush();
    return reason;
  }

  private RuntimeAdapter current() {
    if (runtime == null) runtime = newRuntime.get();
    return runtime;
  }

  private static JsonNode field(JsonNode request, String name) {
    JsonNode value = request.get(name);
    if (value == null) {
      throw new Failure("the " + request.path("cmd").asText() + " request has no '" + name + "'");
    }
    return value;
  }

  private static String text(JsonNode request, String name) {
    JsonNode value = field(request, name);
    if (!value.isTextual()) {
      throw new Failure("the " + request.path("cmd").asText() + " request has a bad '" + name + "'");
    }
    return value.textValue();
  }

  private ObjectNode answer(JsonNode request) {
    JsonNode cmd = request.get("cmd");
    String command = cmd != null && cmd.isTextual() ? cmd.textValue() : String.valueOf(cmd);
    ObjectNode out = Json.object();
    switch (command) {
      case "start" -> {
        JsonNode protocol = field(request, "protocol");
        if (!protocol.isIntegralNumber() || protocol.bigIntegerValue().intValue() != 1) {
          throw new Failure("this adapter speaks protocol 1");
        }
        closeRuntime();
        runtime = newRuntime.get();
        out.put("protocol", 1);
        out.set("implementation", implementation.describe());
        implementation.rules().forEach(out.putArray("rules")::add);
        implementation.transports().forEach(out.putArray("transports")::add);
        String pointer = implementation.getApiSpec();
        if (pointer != null && !pointer.isEmpty()) out.put("get_api_spec", pointer);
      }
      case "normalize" -> {
        try {
          out.set("arguments", current().normalize(field(request, "input_schema"), field(request, "arguments")));
        } catch (Rejected refused) {
          out.set("rejected", refused.error());
        }
      }
      case "register" -> {
        JsonNode given = field(request, "tools");
        if (!given.isArray()) throw new Failure("the register request has a bad 'tools'");
        List<Tool> tools = new ArrayList<>();
        for (JsonNode tool : given) {
          if (!tool.isObject() || !tool.path("name").isTextual() || !tool.has("input_schema")) {
            throw new Failure("the register request has a tool with no name or no input_schema");
          }
          JsonNode description = tool.get("description");
          tools.add(
              new Tool(
                  tool.get("name").textValue(),
                  description != null && description.isTextual() ? description.textValue() : null,
                  tool.get("input_schema")));
        }
        current().register(tools);
        out.put("ok", true);
      }
      case "describe" -> {
        String view = text(request, "view");
        if (!view.equals("get_api_spec") && !view.equals("direct")) {
          throw new Unsupported("no view '" + view + "'");
        }
        out.set("input_schema", current().describe(text(request, "tool"), view));
      }
      case "invoke" -> {
        String transport = text(request, "transport");
        if (!implementation.transports().contains(transport)) {
          throw new Unsupported("no transport '" + transport + "'");
        }
        List<JsonNode> received = new ArrayList<>();
        Handler handler = arguments -> received.add(arguments == null ? Json.NODES.nullNode() : arguments.deepCopy());
        ObjectNode error = current().invoke(transport, text(request, "tool"), field(request, "arguments"), handler);
        if (error == null) {
          if (received.isEmpty()) throw new Failure("the call was not rejected, but the handler did not run");
          out.put("outcome", "executed");
          out.put("handler_calls", received.size());
          out.set("received", received.get(received.size() - 1));
        } else {
          out.put("outcome", "rejected");
          out.put("handler_calls", received.size());
          out.set("error", error);
        }
      }
      case "stop" -> {
        closeRuntime();
        out.put("ok", true);
      }
      default -> throw new Unsupported("no command '" + command + "'");
    }
    return out;
  }

  private void closeRuntime() {
    RuntimeAdapter closing = runtime;
    runtime = null;
    if (closing != null) closing.close();
  }
}
