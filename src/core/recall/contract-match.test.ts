import { describe, expect, it } from "vitest";
import type { ContractClause } from "../entry/entry.js";
import { contractTools, contractWords, matchContract, occursIn } from "./contract-match.js";
import { parseSearchQuery } from "./search-query.js";

const onQuery = (...words: string[]): ContractClause => ({
  mechanism: "on_query",
  params: { words },
});
const onTool = (name: string): ContractClause => ({ mechanism: "on_tool", params: { name } });
const fire = (contract: ContractClause[], query?: string, tool?: string) =>
  matchContract(contract, {
    ...(query === undefined ? {} : { queryStems: parseSearchQuery(query).stems }),
    ...(tool === undefined ? {} : { tool }),
  });

describe("matchContract", () => {
  it("fires on_query words through word forms and ё", () => {
    expect(fire([onQuery("откат")], "как откатить")).toEqual([{ kind: "on_query", word: "откат" }]);
    expect(fire([onQuery("deploy")], "deploying the app")).toEqual([
      { kind: "on_query", word: "deploy" },
    ]);
    expect(fire([onQuery("развёртывание")], "ошибка развертывания")).toEqual([
      { kind: "on_query", word: "развёртывание" },
    ]);
    expect(fire([onQuery("deploy")], "rollback")).toEqual([]);
  });

  it("fires a multi-token word only on the contiguous sequence", () => {
    const contract = [onQuery("pre-receive hook")];
    expect(fire(contract, "the pre-receive hook failed")).toHaveLength(1);
    expect(fire(contract, "Pre receive HOOKS")).toHaveLength(1);
    expect(fire(contract, "hook pre-receive")).toEqual([]);
    expect(fire(contract, "pre hook receive")).toEqual([]);
  });

  it("fires on_tool on the exact name only", () => {
    const contract = [onTool("Bash")];
    expect(fire(contract, undefined, "Bash")).toEqual([{ kind: "on_tool", name: "Bash" }]);
    expect(fire(contract, undefined, "bash")).toEqual([]);
    expect(fire(contract, undefined, "Bash ")).toEqual([]);
    expect(fire(contract, "Bash")).toEqual([]);
  });

  it("ignores unknown mechanisms and malformed params", () => {
    const contract: ContractClause[] = [
      { mechanism: "on_path", params: { glob: "**" } },
      { mechanism: "on_query", params: { words: "deploy" } },
      { mechanism: "on_tool", params: { name: 3 } },
    ];
    expect(contractWords(contract)).toEqual([]);
    expect(contractTools(contract)).toEqual([]);
    expect(fire(contract, "deploy **", "3")).toEqual([]);
  });

  it("drops words without letters or digits", () => {
    expect(contractWords([onQuery("!!", "C++")])).toEqual([{ word: "C++", stems: ["c"] }]);
  });
});

describe("occursIn", () => {
  it("finds contiguous runs", () => {
    expect(occursIn(["a", "b", "c"], ["b", "c"])).toBe(true);
    expect(occursIn(["a", "b", "c"], ["a", "c"])).toBe(false);
    expect(occursIn(["a"], ["a", "b"])).toBe(false);
  });
});
