// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// A per-line CSV tokenizer and number parser written as a state machine: a switch over states
// with fall-through, nested loops with break and continue, early returns on malformed input,
// character classification, and char/short arithmetic.

enum State { FIELD_START, IN_NUMBER, IN_FRACTION, IN_EXPONENT, IN_QUOTED, AFTER_QUOTE, ERROR };

typedef struct {
  int fields;
  int numbers;
  int quoted;
  short errorColumn;
  char lastChar;
  char pad;
} LineStats;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

kernel void tokenize_lines(global const char* text, global const int* lineStarts, int lineCount,
                           global float* values, int maxValuesPerLine, global LineStats* stats) {
  int line = get_global_id(0);
  if (line >= lineCount)
    return;
  global const char* p = text + lineStarts[line];
  global const char* end = text + lineStarts[line + 1];
  global float* out = values + line * maxValuesPerLine;
  LineStats s = {0, 0, 0, -1, 0, 0};
  enum State state = FIELD_START;
  float value = 0.0f, scale = 1.0f, sign = 1.0f;
  int exponent = 0, expSign = 1;

  for (; p <= end; ++p) {
    char c = p < end ? *p : ',';
    if (c == '\r')
      continue;
    switch (state) {
    case FIELD_START:
      value = 0.0f;
      scale = 1.0f;
      sign = 1.0f;
      exponent = 0;
      expSign = 1;
      if (c == '"') {
        state = IN_QUOTED;
        ++s.quoted;
        break;
      }
      if (c == '-') {
        sign = -1.0f;
        state = IN_NUMBER;
        break;
      }
      if (c == ',') {
        ++s.fields;
        break;
      }
      state = IN_NUMBER;
      // fall through: the first character is part of the number
    case IN_NUMBER:
      if (isDigit(c)) {
        value = value * 10.0f + (float)(c - '0');
        break;
      }
      if (c == '.') {
        state = IN_FRACTION;
        break;
      }
      // fall through: an exponent or the end of the field
    case IN_FRACTION:
      if (state == IN_FRACTION && isDigit(c)) {
        scale *= 0.1f;
        value += (float)(c - '0') * scale;
        break;
      }
      if ((c | 0x20) == 'e') {
        state = IN_EXPONENT;
        break;
      }
      if (c != ',') {
        state = ERROR;
        break;
      }
      if (s.numbers < maxValuesPerLine)
        out[s.numbers] = sign * value;
      ++s.numbers;
      ++s.fields;
      state = FIELD_START;
      break;
    case IN_EXPONENT:
      if (c == '-' && exponent == 0) {
        expSign = -1;
      } else if (isDigit(c)) {
        exponent = exponent * 10 + (c - '0');
      } else if (c == ',') {
        if (s.numbers < maxValuesPerLine)
          out[s.numbers] = sign * value * pown(10.0f, expSign * exponent);
        ++s.numbers;
        ++s.fields;
        state = FIELD_START;
      } else {
        state = ERROR;
      }
      break;
    case IN_QUOTED:
      if (c == '"')
        state = AFTER_QUOTE;
      break;
    case AFTER_QUOTE:
      if (c == '"') {
        state = IN_QUOTED; // an escaped quote
      } else if (c == ',') {
        ++s.fields;
        state = FIELD_START;
      } else {
        state = ERROR;
      }
      break;
    default:
      break;
    }
    if (state == ERROR) {
      s.errorColumn = (short)(p - (text + lineStarts[line]));
      s.lastChar = c;
      stats[line] = s;
      return;
    }
  }
  s.lastChar = end > text + lineStarts[line] ? end[-1] : (char)0;
  stats[line] = s;
}
