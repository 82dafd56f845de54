export { type UserChoice, userSimulatorFor } from "./choose.js";
export { LlmUser, userInstructions } from "./llm.js";
export { BUILT_IN_MODES, INTERACTIVE, type ModeSpec, modeHasUser, modeNamed, modeNames, registerMode, SINGLE_TURN } from "./modes.js";
export { requestPieces, ScriptedUser } from "./scripted.js";
export {
  boundedAgentText,
  MAX_USER_TURNS,
  STOP_MARKER,
  USER_INPUT_BUDGET,
  type UserBrief,
  type UserConversation,
  type UserSimulator,
  UserSimulatorError,
  type UserTurn,
} from "./user.js";
