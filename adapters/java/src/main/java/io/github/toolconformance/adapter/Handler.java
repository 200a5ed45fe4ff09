package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The recording body of a tool: give it what the tool received, each time the tool runs. The kit
 * keeps a copy taken at the call, counts the calls, and answers the last one as {@code received}.
 */
@FunctionalInterface
public interface Handler {
  /** Records one run of the tool with the arguments it received. */
  void call(JsonNode arguments);

  /** Records one run with plain Java values ({@link Json#fromJava}). */
  default void callWith(Object arguments) {
    call(Json.fromJava(arguments));
  }
}
