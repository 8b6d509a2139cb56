import { data } from "react-router";
import { isDomainError } from "~/server/errors";

/**
 * Decision 0520: a staff page's or action's refusal of anyone but the staff it is for is the
 * not-found page (status 404), as for any path that does not exist; every other error goes on.
 */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isDomainError(error) && error.code === "not-found") throw data(null, { status: 404 });
    throw error;
  }
}
