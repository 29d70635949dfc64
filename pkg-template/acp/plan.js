// ACP `plan` updates from the agent's todo tools. letta-code offers a different one per
// toolset: `TodoWrite` (`{todos: [{content, status, priority?}]}`, the whole list each call),
// `UpdatePlan` (codex and letta toolsets: `{plan: [{step, status}]}`, the whole list) and the
// default toolset's task store (`TaskCreate` returns the new task with its `taskId`,
// `TaskUpdate` changes one, `TaskGet` / `TaskList` report them). Each successful call that
// changes the list gives the complete list (ACP clients replace the plan with each update).

const STATUSES = new Set(["pending", "in_progress", "completed"]);
const PRIORITIES = new Set(["high", "medium", "low"]);

const status = (value) => (STATUSES.has(value) ? value : "pending");
const priority = (value) => (PRIORITIES.has(value) ? value : "medium");

const parse = (content) => {
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
};

/** Tracks the plan of one session; tool names are letta-code's. */
export class PlanTracker {
  constructor() {
    /** The task store's tasks this session saw, by id, in creation order. */
    this.tasks = new Map();
    /** The last whole list (TodoWrite / UpdatePlan), when the agent uses one of those. */
    this.list = undefined;
  }

  /**
   * The plan entries after a successful call of `name` with `input` and result text `output`,
   * or `undefined` when the call did not change the plan (or is no todo tool).
   */
  afterResult(name, input, output) {
    switch (name) {
      case "TodoWrite":
      case "todo_write":
      case "write_todos": {
        const todos = Array.isArray(input?.todos) ? input.todos : [];
        this.list = todos
          .filter((t) => typeof (t?.content ?? t?.description) === "string")
          .map((t) => ({ content: t.content ?? t.description, status: status(t.status), priority: priority(t.priority) }));
        return this.list;
      }
      case "UpdatePlan":
      case "update_plan": {
        const steps = Array.isArray(input?.plan) ? input.plan : [];
        this.list = steps.filter((s) => typeof s?.step === "string").map((s) => ({ content: s.step, status: status(s.status), priority: "medium" }));
        return this.list;
      }
      case "TaskCreate":
      case "TaskUpdate":
      case "TaskGet":
        return this.#recordTasks([parse(output)], name === "TaskCreate");
      case "TaskList":
        return this.#recordTasks(parse(output)?.tasks ?? [], false);
      default:
        return undefined;
    }
  }

  /** The current entries (for a replay's closing `plan`), `undefined` when there are none. */
  entries() {
    if (this.list) return this.list;
    return this.tasks.size > 0 ? [...this.tasks.values()].map(({ entry }) => entry) : undefined;
  }

  /**
   * Records task objects (`{taskId, subject, status, metadata}`); only tasks this session
   * created are tracked (the task store is shared by the server's conversations). Returns the
   * entries when one changed.
   */
  #recordTasks(tasks, created) {
    let changed = false;
    for (const task of tasks) {
      if (typeof task?.taskId !== "string" || (!created && !this.tasks.has(task.taskId))) continue;
      if (task.status === "deleted") {
        changed = this.tasks.delete(task.taskId) || changed;
        continue;
      }
      const entry = { content: String(task.subject ?? task.description ?? task.taskId), status: status(task.status), priority: priority(task.metadata?.priority) };
      const previous = this.tasks.get(task.taskId)?.entry;
      if (!previous || previous.content !== entry.content || previous.status !== entry.status || previous.priority !== entry.priority) changed = true;
      this.tasks.set(task.taskId, { entry });
    }
    return changed ? [...this.tasks.values()].map(({ entry }) => entry) : undefined;
  }
}
