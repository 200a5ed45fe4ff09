package io.github.toolconformance.adapter;

/** Answered {@code {"unsupported": why}}: the runtime does not have this; the case is skipped. */
public class Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What the runtime does not have, or the framework's refusal in its own words. */
  public Unsupported(String why) {
    super(why);
  }
}
