import type { Queryable } from "../db/client";
import { type Campus, campusIdForHost, DEFAULT_CAMPUS_ID, listCampuses } from "./campuses";

/**
 * The campuses, read once at start: every request needs its campus, and the
 * fifteen rows change only when an operator edits them (then restart or refresh()).
 */
export class CampusDirectory {
  private byId = new Map<string, Campus>();

  constructor(
    private readonly db: Queryable,
    private readonly productionHosts: Record<string, string>,
  ) {}

  async refresh(): Promise<void> {
    const rows = await listCampuses(this.db);
    this.byId = new Map(rows.map((row) => [row.id, row]));
  }

  all(): Campus[] {
    return [...this.byId.values()];
  }

  get(id: string): Campus | null {
    return this.byId.get(id) ?? null;
  }

  forHost(host: string | undefined): Campus {
    const campus =
      this.byId.get(campusIdForHost(host, this.productionHosts)) ?? this.byId.get(DEFAULT_CAMPUS_ID);
    if (!campus) throw new Error("campuses are not seeded");
    return campus;
  }
}
