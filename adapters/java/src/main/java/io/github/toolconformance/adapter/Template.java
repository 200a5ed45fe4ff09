package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The reproduction template of a framework adapter, filled as the harness's generated README fills
 * it (docs/protocol.md, "The reproduction template"), so that an adapter's own tests can run the
 * very text a maintainer is given.
 *
 * <p>{@link #jsonText} is the compact JSON text of a value in printable ASCII, every other
 * character and every {@code '}, backtick and {@code $} written as a lower-case {@code \\uXXXX}
 * escape of its UTF-16 units: JSON of the same value, inert inside a Java text block or string.
 */
public final class Template {
  private Template() {}

  /** The text the harness puts in place of {@code __SCHEMA__} / {@code __ARGUMENTS__}. */
  public static String jsonText(JsonNode value) {
    StringBuilder out = new StringBuilder();
    Json.write(value, out, true);
    return out.toString();
  }

  /**
   * The template with every {@code __TOOL__} replaced by the tool's name as it is, then every
   * {@code __SCHEMA__} and {@code __ARGUMENTS__} by the {@link #jsonText} of the schema and of the
   * arguments, in that order.
   */
  public static String fill(String template, String tool, JsonNode schema, JsonNode arguments) {
    return template
        .replace("__TOOL__", tool)
        .replace("__SCHEMA__", jsonText(schema))
        .replace("__ARGUMENTS__", jsonText(arguments));
  }
}
