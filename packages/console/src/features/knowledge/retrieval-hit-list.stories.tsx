import type { Meta, StoryObj } from "@storybook/react-vite";
import { RetrievalHitList, type RetrievalHit } from "./retrieval-hit-list";

const hits: RetrievalHit[] = [
  {
    chunkId: "kc_01",
    fileName: "returns-policy",
    content: "# Returns policy\n\nParcels can be returned within 30 days of delivery. The parcel must be unused and in its original packaging.",
    score: 0.0181,
    similarity: 0.812,
    textScore: 7.42,
  },
  {
    chunkId: "kc_02",
    fileName: "refunds-and-payments-handbook-for-customer-service-2026",
    content: "Refunds reach the original payment method within five working days after the returned parcel arrives at our warehouse.",
    score: 0.0164,
    similarity: 0.734,
    textScore: null,
  },
  {
    chunkId: "kc_03",
    fileName: "damaged-parcels",
    content: "A damaged parcel is replaced free of charge. Send a photo of the damage to the support desk before returning it.",
    score: 0.0159,
    similarity: null,
    textScore: 2.1,
  },
];

const meta = {
  title: "Knowledge/RetrievalHitList",
  component: RetrievalHitList,
  args: { kind: "hybrid", hits },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 420 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof RetrievalHitList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Fused hits show their rank score beside the similarity and text score they came with. */
export const Hybrid: Story = {};

/** Semantic hits carry a cosine similarity. */
export const Semantic: Story = { args: { kind: "semantic", hits: hits.filter((hit) => hit.similarity !== null).map((hit) => ({ ...hit, textScore: null })) } };

/** Full-text hits carry a text relevance score. */
export const FullText: Story = { args: { kind: "fullText", hits: hits.filter((hit) => hit.textScore !== null).map((hit) => ({ ...hit, similarity: null })) } };

/** Nothing passed the threshold: a hint on what to change. */
export const NoHits: Story = { args: { kind: "semantic", hits: [] } };
