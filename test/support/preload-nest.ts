// Evaluates @nestjs/common and @nestjs/core before a test file's own imports. @nestjs/throttler is
// CommonJS and require()s them: on Node >= 24.9 Jest does that with require(esm), which refuses a
// module still being linked in the test's import graph ("in a cycle"); loaded first, they are done.
import '@nestjs/common';
import '@nestjs/core';
