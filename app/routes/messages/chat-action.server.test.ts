import { describe, expect, it } from "vitest";
import { ChatError } from "~/server/chats/errors";
import { CHAT_MESSAGES, MAX_MESSAGE_FIELD_LENGTH } from "~/server/chats/schemas.shared";
import { messageFromForm } from "./chat-action.server";

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

describe("messageFromForm", () => {
  it("reads the text and the shared post", () => {
    expect(messageFromForm(formOf({ text: "hi", postId: "" }))).toEqual({
      text: "hi",
      postId: null,
      files: [],
      acknowledgedNudge: false,
    });
  });

  it("refuses a text field over its cap with the chats area's 'too long' error (spec 2 §5)", () => {
    const refusal = (() => {
      try {
        messageFromForm(formOf({ text: "x".repeat(MAX_MESSAGE_FIELD_LENGTH + 1) }));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ChatError);
    expect(refusal).toMatchObject({
      code: "too-many-characters",
      status: 400,
      message: CHAT_MESSAGES.tooManyCharacters,
    });
  });
});
