export { type UserChoice, userSimulatorFor } from "./choose.js";
export { LlmUser, userInstructions } from "./llm.js";
export { requestPieces, ScriptedUser } from "./scripted.js";
export { MAX_USER_TURNS, STOP_MARKER, type UserBrief, type UserConversation, type UserSimulator, UserSimulatorError, type UserTurn } from "./user.js";
