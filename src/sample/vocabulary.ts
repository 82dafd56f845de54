/** Word lists for the sample org. Plain data; the generator combines them with a seeded RNG. */

export const FIRST_NAMES = [
  "Ava",
  "Liam",
  "Mia",
  "Noah",
  "Zoe",
  "Ethan",
  "Ying",
  "Raj",
  "Sofia",
  "Mateo",
  "Chloe",
  "Omar",
  "Priya",
  "Lucas",
  "Hana",
  "Diego",
  "Nora",
  "Kai",
  "Elena",
  "Samir",
  "Grace",
  "Jonah",
  "Aisha",
  "Felix",
  "Maya",
  "Tomas",
  "Lena",
  "Arjun",
  "Ruby",
  "Hugo",
  "Iris",
  "Malik",
  "Keiko",
  "Oscar",
  "Leah",
  "Ivan",
  "Nadia",
  "Theo",
  "Amara",
  "Jules",
];
export const LAST_NAMES = [
  "Liu",
  "Smith",
  "Garcia",
  "Patel",
  "Kim",
  "Nguyen",
  "Okafor",
  "Rossi",
  "Müller",
  "Dubois",
  "Silva",
  "Cohen",
  "Tanaka",
  "Novak",
  "Haddad",
  "Larsen",
  "Moreau",
  "Ibrahim",
  "Chen",
  "Walsh",
  "Fischer",
  "Santos",
  "Kowalski",
  "Byrne",
  "Ali",
  "Jensen",
  "Romero",
  "Sato",
  "Ortiz",
  "Hughes",
];
export const COMPANY_WORDS_A = [
  "Adaptive",
  "Quantum",
  "Silicon",
  "Vertex",
  "Nimbus",
  "Apex",
  "Helix",
  "Cobalt",
  "Summit",
  "Pioneer",
  "Lumen",
  "Vector",
  "Orbit",
  "Crescent",
  "Granite",
  "Harbor",
  "Keystone",
  "Meridian",
  "Northstar",
  "Radiant",
];
export const COMPANY_WORDS_B = ["Design", "Circuits", "Systems", "Microtech", "Devices", "Semiconductor", "Electronics", "Labs", "Dynamics", "Logic"];
export const COMPANY_WORDS_C = ["Solutions", "Inc", "Group", "Corp", "Partners", "Technologies", "Works", "Holdings"];
export const INDUSTRIES = ["Electronics", "Semiconductors", "Telecommunications", "Automotive", "Aerospace", "Healthcare", "Energy", "Manufacturing"];
export const US_STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
];
export const TERRITORY_NAMES = ["Pacific Northwest", "California", "Southwest", "Mountain", "Great Plains", "Midwest", "Great Lakes", "Southeast", "Mid-Atlantic", "New England"];

export const PRODUCT_PREFIXES = [
  "SecureAnalytics",
  "OptiPower",
  "CircuitSim",
  "ThermoGuard",
  "SignalForge",
  "NanoLayout",
  "PowerGrid",
  "DataWeave",
  "FlowSync",
  "ChipVision",
  "VoltEdge",
  "WaveTrace",
  "CoreMesh",
  "PulseLink",
  "GridSense",
  "LogicLens",
  "SiliconStack",
];
export const PRODUCT_SUFFIXES = ["Pro", "Manager", "Suite"];
export const PRODUCT_ADJECTIVES = [
  "interactive",
  "automated",
  "cloud-based",
  "high-precision",
  "real-time",
  "modular",
  "collaborative",
  "embedded",
  "predictive",
  "secure",
  "scalable",
  "visual",
  "compact",
  "adaptive",
  "integrated",
  "lightweight",
  "enterprise",
];
export const PRODUCT_NOUNS = ["engineering application", "power optimization manager", "layout toolkit"];
export const PRODUCT_DOMAINS = ["chip design", "power electronics", "signal integrity", "thermal analysis", "PCB layout", "embedded firmware"];
export const PRODUCT_CATEGORIES = [
  "Design Automation",
  "Simulation",
  "Power Management",
  "Verification",
  "Analytics",
  "Security",
  "Layout",
  "Testing",
  "Firmware",
  "Collaboration",
];

/** Issues with a name an agent can match and a description. */
export const ISSUES: readonly { name: string; description: string }[] = [
  { name: "Integration Failure", description: "The product fails to exchange data with third-party software." },
  { name: "Login Problems", description: "Users cannot sign in or are locked out of their accounts." },
  { name: "Performance Degradation", description: "The product runs slowly or times out under normal load." },
  { name: "Missing Notifications", description: "Alerts and feature update notifications are not delivered." },
  { name: "Licensing Error", description: "License keys are rejected or seats are miscounted." },
  { name: "Data Export Failure", description: "Reports and data exports fail or produce corrupt files." },
  { name: "Installation Error", description: "The installer stops with an error before completion." },
  { name: "Calculation Mismatch", description: "Simulation or analysis results differ from expected values." },
  { name: "User Interface Glitch", description: "Screens render incorrectly or controls do not respond." },
  { name: "Billing Discrepancy", description: "Invoices do not match the agreed pricing." },
  { name: "Sync Conflict", description: "Changes made on two devices overwrite each other." },
  { name: "Hardware Compatibility", description: "The product does not recognise supported hardware." },
  { name: "Security Alert", description: "Suspicious access attempts or certificate warnings appear." },
  { name: "Documentation Gap", description: "Documentation is missing steps or describes old behaviour." },
  { name: "Crash on Startup", description: "The application closes immediately after launch." },
];

export const CASE_PRIORITIES = ["Low", "Medium", "High"];
export const LEAD_STATUSES_OPEN = ["Open - Not Contacted", "Working - Contacted"];
export const QUOTE_STATUSES = ["Draft", "Needs Review", "Presented", "Accepted", "Denied"];
export const STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"] as const;
export type Stage = (typeof STAGES)[number];

/** Activities typical of each stage: the stage activity guide and the opportunity tasks use these exactly. */
export const STAGE_ACTIVITIES: Readonly<Record<Stage, readonly string[]>> = {
  Qualification: ["Research prospect background", "Send introductory email", "Schedule discovery meeting", "Attend networking event for leads"],
  Discovery: ["Analyze prospect pain points", "Map stakeholder objectives", "Review competitor landscape", "Prepare value proposition outline"],
  Quote: ["Prepare tailored proposal", "Configure product bundle", "Draft pricing quote", "Send quote for internal review"],
  Negotiation: ["Negotiate contract terms", "Address pricing objections", "Revise discount structure", "Coordinate legal redlines"],
  Closed: ["Send signed contract confirmation", "Schedule onboarding kickoff", "Hand over to customer success", "Archive deal documentation"],
};

export const BANT_FACTORS = ["Budget", "Authority", "Need", "Timeline"] as const;
export type BantFactor = (typeof BANT_FACTORS)[number];
/** Statements in call transcripts. Unmet statements always carry a negation; met ones never do. */
export const BANT_STATEMENTS: Readonly<Record<BantFactor, { met: readonly string[]; unmet: readonly string[] }>> = {
  Budget: {
    met: ["Our budget for this project is approved and allocated.", "Budget is confirmed for this fiscal year."],
    unmet: ["We do not have budget set aside for this yet.", "Budget has not been approved by finance."],
  },
  Authority: {
    met: ["I have the authority to sign off on this purchase.", "As the VP I hold final authority on this decision."],
    unmet: ["I do not have the authority to approve this purchase.", "The authority to sign is not with me; our board decides."],
  },
  Need: {
    met: ["There is a clear need to replace our current tooling.", "The need is urgent because our current process fails weekly."],
    unmet: ["Honestly we have no real need for this right now.", "We don't see a need beyond what we already have."],
  },
  Timeline: {
    met: ["Our timeline is to deploy within this quarter.", "The timeline is set: rollout starts next month."],
    unmet: ["There is no timeline for a decision yet.", "We haven't set any timeline for this project."],
  },
};

export const INSIGHT_SUBTOPICS = [
  "Business problems and pain points",
  "Pricing and competitive analysis",
  "Implementation process and support",
  "Product features and capabilities",
  "Integration with existing systems",
  "Training and onboarding",
  "Security and compliance",
  "Contract terms and renewal",
];
export const NEGATIVE_REACTIONS = ["was frustrated", "raised serious concerns", "was disappointed", "sounded unhappy"];
export const POSITIVE_REACTIONS = ["was pleased", "was enthusiastic", "was satisfied", "praised the team"];

/** Statements that communication policies forbid: the article quotes the phrase, a violating message uses it. */
export const COMMUNICATION_POLICIES: readonly { title: string; phrase: string }[] = [
  { title: "Refund Commitment Policy", phrase: "guaranteed full refund" },
  { title: "Roadmap Disclosure Policy", phrase: "unreleased feature date" },
  { title: "Liability Statement Policy", phrase: "we accept full liability" },
  { title: "Customer Data Sharing Policy", phrase: "another customer's configuration" },
];

export const FAQ_TOPICS = [
  "network scalability",
  "data security",
  "thermal management",
  "signal integrity",
  "power efficiency",
  "design verification",
  "firmware updates",
  "cloud simulation",
  "license management",
  "EDA automation",
];
export const FAQ_CONTEXTS = ["telecom infrastructure", "HPC clusters", "automotive electronics", "medical devices", "consumer hardware", "industrial IoT"];
export const FAQ_REASONS = [
  "to handle increased traffic and keep connectivity efficient",
  "because a breach could have catastrophic consequences",
  "to prevent overheating and extend component life",
  "to avoid data errors at high frequencies",
  "to lower operating costs and meet energy rules",
  "to catch defects before costly fabrication",
  "to patch vulnerabilities and add features safely",
  "to run large jobs without buying hardware",
  "to stay compliant and control spending",
  "to shorten design cycles and reduce manual errors",
];
