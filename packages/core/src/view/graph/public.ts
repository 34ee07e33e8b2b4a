export { type GraphDocument, type GraphEdge, type GraphNode, type PlanState, runGraph } from './graph.js';
