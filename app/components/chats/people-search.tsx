import { useEffect, useId, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { Avatar } from "~/app/components/ui/avatar";
import { Button } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { useAdoptTypedValue } from "~/app/lib/hydrated";
import { useRootData } from "~/app/lib/root-data";
import type { ChatPerson } from "~/server/chats/people";
import { CHAT_MESSAGES, MIN_PEOPLE_SEARCH_CHARACTERS } from "~/server/chats/schemas.shared";
import { newMessageHref } from "./send-message-button";

/** Up and Down move the highlight with wrap-around (spec 1 §5 'New-message search'); -1 is none. */
export function moveHighlight(current: number, count: number, key: "ArrowUp" | "ArrowDown"): number {
  if (count === 0) return -1;
  if (key === "ArrowDown") return current + 1 >= count ? 0 : current + 1;
  return current <= 0 ? count - 1 : current - 1;
}

/**
 * The New Message user search (spec 1 §2 'Modals', §5): 'Search {campus} Buy / Sell', the hint
 * 'Try searching someone's name . . .', a search only above one character, Up/Down with
 * wrap-around, Enter on the highlighted person; Enter with nobody highlighted → 'Please select a
 * user!'. Choosing someone asks 'Start Conversation?' (Start Conversation / Cancel), then opens
 * /messages/new for them (the existing chat in either direction, or a new one).
 */
export function PeopleSearch({ autoFocus = false }: { autoFocus?: boolean }) {
  const { campus } = useRootData();
  const search = useFetcher<{ people?: ChatPerson[] }>();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [highlight, setHighlight] = useState(-1);
  const [chosen, setChosen] = useState<ChatPerson | null>(null);
  const listId = useId();
  const field = useRef<HTMLInputElement>(null);
  useAdoptTypedValue(field, text, setText);
  const query = text.trim();
  const searching = [...query].length >= MIN_PEOPLE_SEARCH_CHARACTERS;
  const people = searching ? (search.data?.people ?? []) : [];

  // biome-ignore lint/correctness/useExhaustiveDependencies: load only when the text changes.
  useEffect(() => {
    setHighlight(-1);
    if (!searching) return;
    const timer = setTimeout(() => search.load(`/messages/new?q=${encodeURIComponent(query)}`), 150);
    return () => clearTimeout(timer);
  }, [query, searching]);

  return (
    <div>
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search people
      </label>
      <input
        ref={field}
        id={`${listId}-input`}
        type="search"
        // biome-ignore lint/a11y/noAutofocus: the modal and page exist to type a name.
        autoFocus={autoFocus}
        value={text}
        placeholder={`Search ${campus.name} Buy / Sell`}
        role="combobox"
        aria-expanded={people.length > 0}
        aria-controls={listId}
        aria-activedescendant={highlight >= 0 ? `${listId}-${highlight}` : undefined}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setHighlight((current) =>
              moveHighlight(current, people.length, event.key as "ArrowUp" | "ArrowDown"),
            );
          } else if (event.key === "Enter") {
            event.preventDefault();
            const person = people[highlight];
            if (person) setChosen(person);
            else if (query !== "") window.alert(CHAT_MESSAGES.selectUser);
          }
        }}
        className="h-11 w-full rounded-full border border-zinc-300 bg-zinc-50 px-4 text-[15px] focus:border-brand-600 focus:bg-white focus:outline-none"
      />
      {people.length === 0 ? (
        <p className="px-2 py-6 text-center text-sm text-zinc-500">
          {searching && search.state === "idle" && search.data
            ? `No results for "${query}"`
            : CHAT_MESSAGES.searchHint}
        </p>
      ) : (
        <div id={listId} role="listbox" aria-label="People" className="mt-2 flex flex-col">
          {people.map((person, index) => (
            <div
              key={person.id}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === highlight}
              onMouseEnter={() => setHighlight(index)}
              onClick={() => setChosen(person)}
              onKeyDown={(event) => {
                if (event.key === "Enter") setChosen(person);
              }}
              className={`flex cursor-pointer items-center gap-3 rounded-xl px-3 py-2 ${index === highlight ? "bg-zinc-100" : ""}`}
            >
              <Avatar person={person} size="sm" />
              <span className="min-w-0">
                <span className="block truncate font-semibold">
                  {person.firstName} {person.lastName}
                </span>
                <span className="block truncate text-sm text-zinc-500">@{person.username}</span>
              </span>
            </div>
          ))}
        </div>
      )}
      <Modal
        open={chosen !== null}
        onOpenChange={(open) => {
          if (!open) setChosen(null);
        }}
        title={CHAT_MESSAGES.startTitle}
        description={chosen ? `Send a message to ${chosen.firstName} ${chosen.lastName}.` : undefined}
        footer={
          <>
            <Button variant="secondary" onClick={() => setChosen(null)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                if (chosen) navigate(newMessageHref(chosen.username));
                setChosen(null);
              }}
            >
              Start Conversation
            </Button>
          </>
        }
      />
    </div>
  );
}
