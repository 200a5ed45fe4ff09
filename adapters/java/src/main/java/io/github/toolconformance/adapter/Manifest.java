package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An MCP server under test, reached over MCP itself ({@code tool-conformance run --mcp-server
 * CMD}): the tool manifest it registers its tools from, and the record of what each tool's
 * handler received (docs/protocol.md, "MCP").
 *
 * <p>{@link #load()} reads the manifest named by {@code TOOL_CONFORMANCE_MANIFEST} (exact numbers,
 * key order kept). A server registers every tool as its users register one, with a handler that
 * calls {@link #record} with what it received and returns "ok". {@link #refuse} says in the
 * record, before the server serves, that the framework refused to register a tool, and why ({@code
 * <call> refused <what>: <its error>}): the harness declines that tool's cases with it.
 */
public final class Manifest {
  private Manifest() {}

  /** The variable naming the manifest. */
  public static final String MANIFEST = "TOOL_CONFORMANCE_MANIFEST";

  /** The variable naming the record. */
  public static final String RECORD = "TOOL_CONFORMANCE_RECORD";

  /** The manifest's version. */
  public static final int VERSION = 1;

  private static final Object LOCK = new Object();

  /** The manifest is missing, unreadable, or not a manifest; the message names the file. */
  public static class ManifestError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What is wrong, and where. */
    public ManifestError(String message) {
      super(message);
    }
  }

  private static Path path(Path given, String variable) {
    if (given != null) return given;
    String named = System.getenv(variable);
    if (named == null || named.isEmpty()) {
      throw new ManifestError(variable + " is not set: start this server with `tool-conformance run --mcp-server`");
    }
    return Path.of(named);
  }

  /** The tools of the manifest {@code TOOL_CONFORMANCE_MANIFEST} names, in its order. */
  public static List<Tool> load() {
    return load(null);
  }

  /** The tools of the manifest at {@code path} (null: the one the variable names), in its order. */
  public static List<Tool> load(Path path) {
    Path file = path(path, MANIFEST);
    JsonNode document;
    try {
      document = Json.read(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException why) {
      throw new ManifestError(file + ": cannot be read: " + why);
    } catch (IllegalArgumentException why) {
      throw new ManifestError(file + ": not UTF-8 JSON: " + why.getMessage());
    }
    JsonNode version = document.get("manifest");
    if (!document.isObject() || version == null || !version.isIntegralNumber() || version.intValue() != VERSION) {
      throw new ManifestError(file + ": not a tool manifest of version " + VERSION + " (no \"manifest\": " + VERSION + ")");
    }
    JsonNode tools = document.get("tools");
    if (tools == null || !tools.isArray()) throw new ManifestError(file + ": \"tools\" is not a list");
    List<Tool> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int index = 0; index < tools.size(); index++) {
      JsonNode tool = tools.get(index);
      String where = file + ": tools[" + index + "]";
      if (!tool.isObject()) throw new ManifestError(where + " is not an object");
      JsonNode name = tool.get("name");
      if (name == null || !name.isTextual() || name.textValue().isEmpty()) throw new ManifestError(where + " has no name");
      if (!names.add(name.textValue())) {
        throw new ManifestError(where + ": the name '" + name.textValue() + "' is published twice");
      }
      if (!tool.has("input_schema")) throw new ManifestError(where + " (" + name.textValue() + ") has no input_schema");
      JsonNode description = tool.get("description");
      if (description != null && !description.isTextual()) {
        throw new ManifestError(where + " (" + name.textValue() + "): description is not a string");
      }
      out.add(new Tool(name.textValue(), description == null ? null : description.textValue(), tool.get("input_schema")));
    }
    return out;
  }

  /**
   * The line {@link #record} appends for a call of {@code tool} that received {@code arguments} (a
   * tree, or plain Java values as {@link Json#fromJava} takes them), with its newline; a value JSON
   * cannot carry gives a {@code not_json} line holding it as Java's {@code String.valueOf} writes it,
   * and why: the harness reads it as a run on that value, and the case fails.
   */
  public static String recordLine(String tool, Object arguments) {
    try {
      return "{\"tool\":" + text(tool) + ",\"arguments\":" + Template.jsonText(Json.fromJava(arguments)) + "}\n";
    } catch (IllegalArgumentException why) {
      String what = String.valueOf(arguments) + " (Java String.valueOf; not JSON: " + why.getClass().getSimpleName() + ": " + why.getMessage() + ")";
      return "{\"tool\":" + text(tool) + ",\"not_json\":" + text(what) + "}\n";
    }
  }

  /** The line {@link #refuse} appends, with its newline. */
  public static String refusalLine(String tool, String why) {
    return "{\"tool\":" + text(tool) + ",\"refused\":" + text(why) + "}\n";
  }

  /**
   * Appends what the handler of {@code tool} received to the record ({@code
   * TOOL_CONFORMANCE_RECORD}), one line, written and flushed before it returns; returns "ok".
   */
  public static String record(String tool, Object arguments) {
    return record(tool, arguments, null);
  }

  /** {@link #record(String, Object)} into the record at {@code path} (null: the variable's). */
  public static String record(String tool, Object arguments, Path path) {
    append(recordLine(tool, arguments), path);
    return "ok";
  }

  /** Says in the record that the framework refused to register {@code tool}, and why. */
  public static void refuse(String tool, String why) {
    refuse(tool, why, null);
  }

  /** {@link #refuse(String, String)} into the record at {@code path} (null: the variable's). */
  public static void refuse(String tool, String why, Path path) {
    append(refusalLine(tool, why), path);
  }

  private static String text(String value) {
    return Template.jsonText(Json.NODES.textNode(value));
  }

  private static void append(String line, Path path) {
    Path file = path(path, RECORD);
    synchronized (LOCK) {
      try {
        Files.writeString(
            file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      } catch (IOException why) {
        throw new UncheckedIOException(file + ": cannot be written", why);
      }
    }
  }
}
