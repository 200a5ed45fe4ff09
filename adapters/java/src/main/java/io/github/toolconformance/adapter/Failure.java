package io.github.toolconformance.adapter;

/** Answered {@code {"error": why}}: the runtime could not carry the command out; the case is an error. */
public class Failure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What could not be carried out. */
  public Failure(String why) {
    super(why);
  }
}
