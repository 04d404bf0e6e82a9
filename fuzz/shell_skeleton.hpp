#pragma once
// The oracle for "no input string appears outside quoting" in a rendered shell script: the script's
// skeleton is its text with every comment and every single-quoted word replaced by a placeholder. A
// renderer that puts plan values only into comments (escaped to one line) and single quotes produces
// the same skeleton whatever the values are; a value that leaks into the code changes it. Used by the
// plan fuzz target and by the render unit tests. Header-only, a tiny lexer of the bash we generate.
#include <string>
#include <string_view>

namespace gpupack::fuzzing {

struct ShellSkeleton {
  std::string text;
  bool balanced = true;  // every quote closed by the end of the script
};

inline ShellSkeleton shell_skeleton(std::string_view script) {
  ShellSkeleton out;
  enum class State { code, single, dquote, comment } state = State::code;
  bool word_start = true;
  for (size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    switch (state) {
      case State::code:
        if (c == '\\' && i + 1 < script.size()) {
          out.text += c;
          out.text += script[++i];
          word_start = false;
        } else if (c == '\'') {
          state = State::single;
          out.text += "'Q'";
        } else if (c == '"') {
          state = State::dquote;
          out.text += c;
        } else if (c == '#' && word_start) {
          state = State::comment;
          out.text += "#C";
        } else {
          out.text += c;
          word_start = c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '(' || c == '&' || c == '|';
        }
        break;
      case State::single:
        // shell_quote writes a ' inside a word as '\'' : one quoted word still, so one placeholder.
        if (script.substr(i, 4) == "'\\''") i += 3;
        else if (c == '\'') state = State::code, word_start = false;
        break;
      case State::dquote:
        out.text += c;
        if (c == '\\' && i + 1 < script.size()) out.text += script[++i];
        else if (c == '"') state = State::code, word_start = false;
        break;
      case State::comment:
        if (c == '\n') {
          state = State::code;
          out.text += c;
          word_start = true;
        }
        break;
    }
  }
  out.balanced = state == State::code || state == State::comment;
  return out;
}

}  // namespace gpupack::fuzzing
