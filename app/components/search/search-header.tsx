import { Link, useNavigate } from "react-router";
import { loadHistory } from "~/app/lib/navigation-history";

/** spec 2 §2: 'Back button goes to /home, or back in history if the previous page was a search.' */
export function SearchHeader() {
  const navigate = useNavigate();
  return (
    <div className="flex items-center gap-2 px-1">
      <Link
        to="/home"
        onClick={(event) => {
          const entries = loadHistory().entries;
          const previous = entries.at(-2) ?? "";
          if (previous.startsWith("/search?") || previous === "/search") {
            event.preventDefault();
            navigate(-1);
          }
        }}
        className="flex size-10 items-center justify-center rounded-full text-zinc-700 hover:bg-zinc-200/60"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="sr-only">Back</span>
      </Link>
      <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Search</h1>
    </div>
  );
}
