export * from "./operations";
export * from "./range";
export * from "./resources";
export * from "./roles";
export * from "./member-access";
