import { data, Link } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { useRootData } from "~/app/lib/root-data";
import type { Route } from "./+types/not-found";

/** /404 and every unknown path (spec 1 §2): the page answers with status 404. */
export function loader() {
  return data({ notFound: true }, { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Error 404", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

export default function NotFound() {
  const { campus } = useRootData();
  return (
    <section
      aria-labelledby="not-found-title"
      className="mt-4 rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center md:mt-8 md:py-16"
    >
      {campus.logo ? (
        <img
          src={campus.logo}
          alt={`${campus.name} logo`}
          width={80}
          height={80}
          className="mx-auto size-20 rounded-2xl shadow-sm"
        />
      ) : null}
      <h1 id="not-found-title" className="mt-6 text-3xl font-extrabold tracking-tight text-zinc-950">
        Error 404
      </h1>
      <p className="mx-auto mt-3 max-w-sm text-base text-zinc-600">
        This page doesn't exist. Try searching for something else.
      </p>
      <Link to="/home" className={buttonClass("primary", "mt-8 h-11 px-7")}>
        Go To Feed
      </Link>
    </section>
  );
}
