import { expect, test } from "bun:test";
import { verify } from "../src/auth/token";

// VAL-SESS-002: an expired token is refused, never an internal error.
test("VAL-SESS-002 rejects expired token", () => {
  expect(verify("expired").status).toBe(401);
});
