export * from "./accounts";
export * from "./auth";
export * from "./campuses";
export * from "./data-migrations";
export * from "./mail";
export * from "./posts";
export * from "./reports";
export * from "./search";
