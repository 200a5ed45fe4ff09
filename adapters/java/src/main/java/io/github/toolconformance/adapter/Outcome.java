package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The outcome lines of a reproduction (docs/protocol.md, "The reproduction template"), printed the
 * one way {@code run-frameworks.sh --check} reads them back: {@code the tool received: <JSON>} and
 * {@code the caller got: <text>}, each on stdout, flushed.
 */
public final class Outcome {
  private Outcome() {}

  /** Prints {@code the tool received: <JSON>} for what a tool received; returns "ok". */
  public static String received(Object value) {
    String text;
    try {
      text = Json.write(Json.fromJava(value));
    } catch (IllegalArgumentException why) {
      text = "(not JSON) " + value;
    }
    System.out.println("the tool received: " + text);
    System.out.flush();
    return "ok";
  }

  /** Prints {@code the caller got: <text>} for an exception (its class and message) or a text. */
  public static void callerGot(Object error) {
    String text =
        error instanceof Throwable t
            ? t.getClass().getSimpleName() + ": " + t.getMessage()
            : error instanceof JsonNode node ? (node.isTextual() ? node.textValue() : Json.write(node)) : String.valueOf(error);
    System.out.println("the caller got: " + text.replace("\n", " "));
    System.out.flush();
  }
}
