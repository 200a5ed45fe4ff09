package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Answered {@code {"rejected": error}} to {@code normalize}: the runtime refused the arguments
 * before any tool ran, with this error object (at least a string {@code message}).
 */
public class Rejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ObjectNode error;

  /** The error object the caller got; one that is no object becomes {@code {"message": text}}. */
  public Rejected(JsonNode error) {
    super(message(error));
    if (error instanceof ObjectNode object) {
      this.error = object;
    } else {
      this.error = Json.object();
      this.error.put("message", message(error));
    }
  }

  /** An error that is only a message. */
  public Rejected(String message) {
    this(Json.NODES.textNode(message));
  }

  /** The error object answered. */
  public ObjectNode error() {
    return error;
  }

  private static String message(JsonNode error) {
    if (error == null) return "rejected";
    if (error.isTextual()) return error.textValue();
    JsonNode message = error.get("message");
    return message != null && message.isTextual() ? message.textValue() : Json.write(error);
  }
}
