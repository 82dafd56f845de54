export { servePurple, type Strategy, type TaskInfo, type Tools } from "./server.js";
export { oracleStrategy, REFUSAL } from "./oracle.js";
export { solverStrategy, naiveStrategy } from "./solver.js";
